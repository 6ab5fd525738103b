import { z } from "zod";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import {
  OptionalNotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  ResultSchema,
} from "./base.js";
import { ContentBlockSchema } from "./content.js";
import { InputResponseRequestParamsSchema } from "./input-required.js";
import { ToolSchema } from "./tool.js";

export { type ToolAnnotations, ToolAnnotationsSchema } from "../2025-03-26/tools.js";

/* Revision 2026-07-28: schemas may use any JSON Schema 2020-12 keyword; `execution` left with
 * tasks; `structuredContent` may be any JSON value; `tools/call` may answer input_required. */

const listToolsRequestParamsSchema = PaginatedRequestParamsSchema;
/** The zod type of {@link ListToolsRequestParamsSchema}, named so that declarations refer to it. */
export interface ListToolsRequestParamsSchemaType
  extends SchemaType<typeof listToolsRequestParamsSchema> {}
/** Params of `tools/list`. */
export const ListToolsRequestParamsSchema: ListToolsRequestParamsSchemaType =
  listToolsRequestParamsSchema;
const listToolsRequestSchema = defineRequestSchema("tools/list", ListToolsRequestParamsSchema);
/** The zod type of {@link ListToolsRequestSchema}, named so that declarations refer to it. */
export interface ListToolsRequestSchemaType extends SchemaType<typeof listToolsRequestSchema> {}
/** `tools/list`. */
export const ListToolsRequestSchema: ListToolsRequestSchemaType = listToolsRequestSchema;
/** `tools/list`. */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

const listToolsResultSchema = PaginatedResultSchema.extend({ tools: z.array(ToolSchema) });
/** The zod type of {@link ListToolsResultSchema}, named so that declarations refer to it. */
export interface ListToolsResultSchemaType extends SchemaType<typeof listToolsResultSchema> {}
/** Result of `tools/list` (cacheable; the order SHOULD be deterministic). */
export const ListToolsResultSchema: ListToolsResultSchemaType = listToolsResultSchema;
/** Result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

const callToolRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
/** The zod type of {@link CallToolRequestParamsSchema}, named so that declarations refer to it. */
export interface CallToolRequestParamsSchemaType
  extends SchemaType<typeof callToolRequestParamsSchema> {}
/** Params of `tools/call`. */
export const CallToolRequestParamsSchema: CallToolRequestParamsSchemaType =
  callToolRequestParamsSchema;
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

const callToolRequestSchema = defineRequestSchema("tools/call", CallToolRequestParamsSchema);
/** The zod type of {@link CallToolRequestSchema}, named so that declarations refer to it. */
export interface CallToolRequestSchemaType extends SchemaType<typeof callToolRequestSchema> {}
/** `tools/call`. */
export const CallToolRequestSchema: CallToolRequestSchemaType = callToolRequestSchema;
/** `tools/call`. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

const callToolResultSchema = ResultSchema.extend({
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
/** The zod type of {@link CallToolResultSchema}, named so that declarations refer to it. */
export interface CallToolResultSchemaType extends SchemaType<typeof callToolResultSchema> {}
/** Complete result of `tools/call`. */
export const CallToolResultSchema: CallToolResultSchemaType = callToolResultSchema;
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** `notifications/tools/list_changed` (only on a listen stream that asked for it). */
export const ToolListChangedNotificationSchema = defineNotificationSchema(
  "notifications/tools/list_changed",
  OptionalNotificationParamsSchema,
);
/** `notifications/tools/list_changed`. */
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;
