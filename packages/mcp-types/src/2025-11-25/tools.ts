import { z } from "zod";
import { CallToolRequestParamsSchema as PreviousCallToolRequestParamsSchema } from "../2024-11-05/tools.js";
import { ToolInputSchemaSchema as PreviousToolInputSchemaSchema } from "../2025-03-26/tools.js";
import {
  CallToolResultSchema as PreviousCallToolResultSchema,
  ListToolsResultSchema as PreviousListToolsResultSchema,
  ToolOutputSchemaSchema as PreviousToolOutputSchemaSchema,
  ToolSchema as PreviousToolSchema,
} from "../2025-06-18/tools.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
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

const toolSchema = PreviousToolSchema.extend({
  inputSchema: ToolInputSchemaSchema,
  outputSchema: ToolOutputSchemaSchema.optional(),
  icons: IconsSchema.optional(),
  execution: ToolExecutionSchema.optional(),
});
/** The zod type of {@link ToolSchema}, named so that declarations refer to it. */
export interface ToolSchemaType extends SchemaType<typeof toolSchema> {}
/** A tool: 2025-06-18's plus `icons` and `execution`. */
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

/** Params of `tools/call`: plus `task` (task-augmented execution). */
export const CallToolRequestParamsSchema = PreviousCallToolRequestParamsSchema.extend({
  task: TaskMetadataSchema.optional(),
});
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

const callToolRequestSchema = defineRequestSchema("tools/call", CallToolRequestParamsSchema);
/** The zod type of {@link CallToolRequestSchema}, named so that declarations refer to it. */
export interface CallToolRequestSchemaType extends SchemaType<typeof callToolRequestSchema> {}
/** `tools/call`. */
export const CallToolRequestSchema: CallToolRequestSchemaType = callToolRequestSchema;
/** `tools/call`. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

const callToolResultSchema = PreviousCallToolResultSchema.extend({
  content: z.array(ContentBlockSchema),
});
/** The zod type of {@link CallToolResultSchema}, named so that declarations refer to it. */
export interface CallToolResultSchemaType extends SchemaType<typeof callToolResultSchema> {}
/** Result of `tools/call`. */
export const CallToolResultSchema: CallToolResultSchemaType = callToolResultSchema;
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
