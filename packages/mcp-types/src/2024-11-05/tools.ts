import { z } from "zod";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import { ObjectSchema } from "../shared/primitives.js";
import {
  NotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  RequestParamsSchema,
  ResultSchema,
} from "./base.js";
import { ContentBlockSchema } from "./content.js";

/** A tool's input schema: a JSON Schema object whose root `type` MUST be `"object"`. */
export const ToolInputSchemaSchema = z.looseObject({
  type: z.literal("object"),
  properties: z.record(z.string(), ObjectSchema).optional(),
});
/** A tool's input schema. */
export type ToolInputSchema = z.infer<typeof ToolInputSchemaSchema>;

/** A tool the client can call. Name rules are guidance (see `validateToolName`), not enforced here. */
export const ToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: ToolInputSchemaSchema,
});
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;

/** Params of `tools/list` (optional). */
export const ListToolsRequestParamsSchema = PaginatedRequestParamsSchema.optional();

/** `tools/list`. */
export const ListToolsRequestSchema = defineRequestSchema(
  "tools/list",
  ListToolsRequestParamsSchema,
);
/** `tools/list`. */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

const listToolsResultSchema = PaginatedResultSchema.extend({ tools: z.array(ToolSchema) });
/** The zod type of {@link ListToolsResultSchema}, named so that declarations refer to it. */
export interface ListToolsResultSchemaType extends SchemaType<typeof listToolsResultSchema> {}
/** Result of `tools/list`. */
export const ListToolsResultSchema: ListToolsResultSchemaType = listToolsResultSchema;
/** Result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Params of `tools/call`. */
export const CallToolRequestParamsSchema = RequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call`. */
export const CallToolRequestSchema = defineRequestSchema("tools/call", CallToolRequestParamsSchema);
/** `tools/call`. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

const callToolResultSchema = ResultSchema.extend({
  content: z.array(ContentBlockSchema),
  isError: z.boolean().optional(),
});
/** The zod type of {@link CallToolResultSchema}, named so that declarations refer to it. */
export interface CallToolResultSchemaType extends SchemaType<typeof callToolResultSchema> {}
/** Result of `tools/call`; a tool that ran and failed answers `isError: true`. */
export const CallToolResultSchema: CallToolResultSchemaType = callToolResultSchema;
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** `notifications/tools/list_changed`. */
export const ToolListChangedNotificationSchema = defineNotificationSchema(
  "notifications/tools/list_changed",
  NotificationParamsSchema.optional(),
);
/** `notifications/tools/list_changed`. */
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;
