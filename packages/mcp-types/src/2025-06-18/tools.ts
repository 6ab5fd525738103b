import { z } from "zod";
import {
  CallToolResultSchema as PreviousCallToolResultSchema,
  ListToolsResultSchema as PreviousListToolsResultSchema,
  ToolSchema as PreviousToolSchema,
} from "../2025-03-26/tools.js";
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

/** A tool: 2025-03-26's plus `title`, `outputSchema` and `_meta`. */
export const ToolSchema = PreviousToolSchema.extend({
  title: z.string().optional(),
  outputSchema: ToolOutputSchemaSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;

/** Result of `tools/list`. */
export const ListToolsResultSchema = PreviousListToolsResultSchema.extend({
  tools: z.array(ToolSchema),
});
/** Result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Result of `tools/call`: content blocks of 2025-06-18 plus `structuredContent` (an object). */
export const CallToolResultSchema = PreviousCallToolResultSchema.extend({
  content: z.array(ContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
});
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
