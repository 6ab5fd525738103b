import { z } from "zod";
import {
  CallToolResultSchema as PreviousCallToolResultSchema,
  ListToolsResultSchema as PreviousListToolsResultSchema,
  ToolInputSchemaSchema as PreviousToolInputSchemaSchema,
  ToolSchema as PreviousToolSchema,
} from "../2024-11-05/tools.js";
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

/** A tool: 2024-11-05's plus `annotations`. */
export const ToolSchema = PreviousToolSchema.extend({
  inputSchema: ToolInputSchemaSchema,
  annotations: ToolAnnotationsSchema.optional(),
});
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;

/** Result of `tools/list`. */
export const ListToolsResultSchema = PreviousListToolsResultSchema.extend({
  tools: z.array(ToolSchema),
});
/** Result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Result of `tools/call`: content may now hold audio. */
export const CallToolResultSchema = PreviousCallToolResultSchema.extend({
  content: z.array(ContentBlockSchema),
});
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
