import { z } from "zod";
import {
  ToolInputSchemaSchema as PreviousToolInputSchemaSchema,
  ToolSchema as PreviousToolSchema,
} from "../2025-11-25/tools.js";
import type { SchemaType } from "../shared/define.js";

/* Revision 2026-07-28: the Tool entity (its own file so sampling can use it without a cycle).
 * Schemas may use any JSON Schema 2020-12 keyword; `execution` left with tasks. */

/**
 * A tool's input schema: root `type: "object"` is required, any 2020-12 keyword may follow;
 * property definitions are JSON values.
 */
export const ToolInputSchemaSchema = PreviousToolInputSchemaSchema.extend({
  properties: z.record(z.string(), z.json()).optional(),
});
/** A tool's input schema. */
export type ToolInputSchema = z.infer<typeof ToolInputSchemaSchema>;

/** A tool's output schema: any JSON Schema 2020-12 object (no longer limited to `type: "object"`). */
export const ToolOutputSchemaSchema = z.looseObject({ $schema: z.string().optional() });
/** A tool's output schema. */
export type ToolOutputSchema = z.infer<typeof ToolOutputSchemaSchema>;

const toolSchema = PreviousToolSchema.omit({ execution: true }).extend({
  inputSchema: ToolInputSchemaSchema,
  outputSchema: ToolOutputSchemaSchema.optional(),
});
/** The zod type of {@link ToolSchema}, named so that declarations refer to it. */
export interface ToolSchemaType extends SchemaType<typeof toolSchema> {}
/** A tool: 2025-11-25's without `execution` and with a general `outputSchema`. */
export const ToolSchema: ToolSchemaType = toolSchema;
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;
