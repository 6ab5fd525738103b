import { z } from "zod";
import {
  CallToolResultSchema as PreviousCallToolResultSchema,
  ListToolsResultSchema as PreviousListToolsResultSchema,
  ToolInputSchemaSchema as PreviousToolInputSchemaSchema,
  ToolSchema as PreviousToolSchema,
} from "../2024-11-05/tools.js";
import type { SchemaType } from "../shared/define.js";
import { ContentBlockSchema } from "./content.js";

export {
  type CallToolRequest,
  type CallToolRequestParams,
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  type ListToolsRequest,
  ListToolsRequestParamsSchema,
  ListToolsRequestSchema,
  type ToolListChangedNotification,
  ToolListChangedNotificationSchema,
} from "../2024-11-05/tools.js";

/** Hints describing a tool (new in 2025-03-26); clients treat them as untrusted. */
export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
/** Hints describing a tool. */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** A tool's input schema: 2024-11-05's plus `required`. */
export const ToolInputSchemaSchema = PreviousToolInputSchemaSchema.extend({
  required: z.array(z.string()).optional(),
});
/** A tool's input schema. */
export type ToolInputSchema = z.infer<typeof ToolInputSchemaSchema>;

const toolSchema = PreviousToolSchema.extend({
  inputSchema: ToolInputSchemaSchema,
  annotations: ToolAnnotationsSchema.optional(),
});
/** The zod type of {@link ToolSchema}, named so that declarations refer to it. */
export interface ToolSchemaType extends SchemaType<typeof toolSchema> {}
/** A tool: 2024-11-05's plus `annotations`. */
export const ToolSchema: ToolSchemaType = toolSchema;
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;

const listToolsResultSchema = PreviousListToolsResultSchema.extend({
  tools: z.array(ToolSchema),
});
/** The zod type of {@link ListToolsResultSchema}, named so that declarations refer to it. */
export interface ListToolsResultSchemaType extends SchemaType<typeof listToolsResultSchema> {}
/** Result of `tools/list`. */
export const ListToolsResultSchema: ListToolsResultSchemaType = listToolsResultSchema;
/** Result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

const callToolResultSchema = PreviousCallToolResultSchema.extend({
  content: z.array(ContentBlockSchema),
});
/** The zod type of {@link CallToolResultSchema}, named so that declarations refer to it. */
export interface CallToolResultSchemaType extends SchemaType<typeof callToolResultSchema> {}
/** Result of `tools/call`: content may now hold audio. */
export const CallToolResultSchema: CallToolResultSchemaType = callToolResultSchema;
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
