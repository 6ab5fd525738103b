import { z } from "zod";
import { CallToolRequestParamsSchema as PreviousCallToolRequestParamsSchema } from "../2024-11-05/tools.js";
import { ToolInputSchemaSchema as PreviousToolInputSchemaSchema } from "../2025-03-26/tools.js";
import {
  CallToolResultSchema as PreviousCallToolResultSchema,
  ListToolsResultSchema as PreviousListToolsResultSchema,
  ToolOutputSchemaSchema as PreviousToolOutputSchemaSchema,
  ToolSchema as PreviousToolSchema,
} from "../2025-06-18/tools.js";
import { defineRequestSchema } from "../shared/define.js";
import { IconsSchema, TaskMetadataSchema } from "./base.js";
import { ContentBlockSchema } from "./content.js";

export {
  type ListToolsRequest,
  ListToolsRequestParamsSchema,
  ListToolsRequestSchema,
  type ToolAnnotations,
  ToolAnnotationsSchema,
  type ToolListChangedNotification,
  ToolListChangedNotificationSchema,
} from "../2025-06-18/tools.js";

/** A tool's input schema: plus `$schema` (JSON Schema 2020-12 is the default dialect). */
export const ToolInputSchemaSchema = PreviousToolInputSchemaSchema.extend({
  $schema: z.string().optional(),
});
/** A tool's input schema. */
export type ToolInputSchema = z.infer<typeof ToolInputSchemaSchema>;

/** A tool's output schema: plus `$schema`. */
export const ToolOutputSchemaSchema = PreviousToolOutputSchemaSchema.extend({
  $schema: z.string().optional(),
});
/** A tool's output schema. */
export type ToolOutputSchema = z.infer<typeof ToolOutputSchemaSchema>;

/** How a tool may run as a task (experimental). */
export const ToolExecutionSchema = z.looseObject({
  taskSupport: z.enum(["forbidden", "optional", "required"]).optional(),
});
/** How a tool may run as a task. */
export type ToolExecution = z.infer<typeof ToolExecutionSchema>;

/** A tool: 2025-06-18's plus `icons` and `execution`. */
export const ToolSchema = PreviousToolSchema.extend({
  inputSchema: ToolInputSchemaSchema,
  outputSchema: ToolOutputSchemaSchema.optional(),
  icons: IconsSchema.optional(),
  execution: ToolExecutionSchema.optional(),
});
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;

/** Result of `tools/list`. */
export const ListToolsResultSchema = PreviousListToolsResultSchema.extend({
  tools: z.array(ToolSchema),
});
/** Result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Params of `tools/call`: plus `task` (task-augmented execution). */
export const CallToolRequestParamsSchema = PreviousCallToolRequestParamsSchema.extend({
  task: TaskMetadataSchema.optional(),
});
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call`. */
export const CallToolRequestSchema = defineRequestSchema("tools/call", CallToolRequestParamsSchema);
/** `tools/call`. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/** Result of `tools/call`. */
export const CallToolResultSchema = PreviousCallToolResultSchema.extend({
  content: z.array(ContentBlockSchema),
});
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
