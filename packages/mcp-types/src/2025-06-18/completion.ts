import { z } from "zod";
import {
  CompleteRequestParamsSchema as PreviousCompleteRequestParamsSchema,
  PromptReferenceSchema as PreviousPromptReferenceSchema,
  ResourceReferenceSchema,
} from "../2024-11-05/completion.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";

export {
  type CompleteResult,
  CompleteResultSchema,
} from "../2025-03-26/completion.js";

/** Identifies a prompt: plus `title`. */
export const PromptReferenceSchema = PreviousPromptReferenceSchema.extend({
  title: z.string().optional(),
});
/** Identifies a prompt. */
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** Identifies a resource template (renamed from ResourceReference in 2025-06-18; same shape). */
export const ResourceTemplateReferenceSchema = ResourceReferenceSchema;
/** Identifies a resource template. */
export type ResourceTemplateReference = z.infer<typeof ResourceTemplateReferenceSchema>;

const completeRequestParamsSchema = PreviousCompleteRequestParamsSchema.extend({
  ref: z.discriminatedUnion("type", [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
/** The zod type of {@link CompleteRequestParamsSchema}, named so that declarations refer to it. */
export interface CompleteRequestParamsSchemaType
  extends SchemaType<typeof completeRequestParamsSchema> {}
/** Params of `completion/complete`: plus `context.arguments` (already resolved variables). */
export const CompleteRequestParamsSchema: CompleteRequestParamsSchemaType =
  completeRequestParamsSchema;
/** Params of `completion/complete`. */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete`. */
export const CompleteRequestSchema = defineRequestSchema(
  "completion/complete",
  CompleteRequestParamsSchema,
);
/** `completion/complete`. */
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;
