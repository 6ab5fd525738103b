import { z } from "zod";
import {
  CallToolResultSchema as PreviousCallToolResultSchema,
  ListToolsResultSchema as PreviousListToolsResultSchema,
  ToolSchema as PreviousToolSchema,
} from "../2025-03-26/tools.js";
import type { SchemaType } from "../shared/define.js";
import { MetaSchema, ObjectSchema } from "../shared/primitives.js";
import { ContentBlockSchema } from "./content.js";

export {
  type CallToolRequest,
  type CallToolRequestParams,
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  type ListToolsRequest,
  ListToolsRequestParamsSchema,
  ListToolsRequestSchema,
  type ToolAnnotations,
  ToolAnnotationsSchema,
  type ToolInputSchema,
  ToolInputSchemaSchema,
  type ToolListChangedNotification,
  ToolListChangedNotificationSchema,
} from "../2025-03-26/tools.js";

/** A tool's output schema (new in 2025-06-18): an object schema for `structuredContent`. */
export const ToolOutputSchemaSchema = z.looseObject({
  type: z.literal("object"),
  properties: z.record(z.string(), ObjectSchema).optional(),
  required: z.array(z.string()).optional(),
});
/** A tool's output schema. */
export type ToolOutputSchema = z.infer<typeof ToolOutputSchemaSchema>;

const toolSchema = PreviousToolSchema.extend({
  title: z.string().optional(),
  outputSchema: ToolOutputSchemaSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link ToolSchema}, named so that declarations refer to it. */
export interface ToolSchemaType extends SchemaType<typeof toolSchema> {}
/** A tool: 2025-03-26's plus `title`, `outputSchema` and `_meta`. */
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
  structuredContent: z.record(z.string(), z.unknown()).optional(),
});
/** The zod type of {@link CallToolResultSchema}, named so that declarations refer to it. */
export interface CallToolResultSchemaType extends SchemaType<typeof callToolResultSchema> {}
/** Result of `tools/call`: content blocks of 2025-06-18 plus `structuredContent` (an object). */
export const CallToolResultSchema: CallToolResultSchemaType = callToolResultSchema;
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
