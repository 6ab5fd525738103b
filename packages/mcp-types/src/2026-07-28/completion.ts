import { z } from "zod";
import { CompleteRequestParamsSchema as PreviousCompleteRequestParamsSchema } from "../2025-06-18/completion.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import { RequestMetaSchema, ResultSchema } from "./base.js";

export {
  type PromptReference,
  PromptReferenceSchema,
  type ResourceTemplateReference,
  ResourceTemplateReferenceSchema,
} from "../2025-06-18/completion.js";

const completeRequestParamsSchema = PreviousCompleteRequestParamsSchema.extend({
  _meta: RequestMetaSchema,
});
/** The zod type of {@link CompleteRequestParamsSchema}, named so that declarations refer to it. */
export interface CompleteRequestParamsSchemaType
  extends SchemaType<typeof completeRequestParamsSchema> {}
/** Params of `completion/complete` (with the required modern `_meta`). */
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

const completeResultSchema = ResultSchema.extend({
  completion: z.looseObject({
    values: z.array(z.string()).max(100),
    total: z.number().int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
/** The zod type of {@link CompleteResultSchema}, named so that declarations refer to it. */
export interface CompleteResultSchemaType extends SchemaType<typeof completeResultSchema> {}
/** Result of `completion/complete`; at most 100 values. */
export const CompleteResultSchema: CompleteResultSchemaType = completeResultSchema;
/** Result of `completion/complete`. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;
