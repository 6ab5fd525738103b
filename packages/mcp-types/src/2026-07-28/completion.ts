import { z } from "zod";
import { CompleteRequestParamsSchema as PreviousCompleteRequestParamsSchema } from "../2025-06-18/completion.js";
import { defineRequestSchema } from "../shared/define.js";
import { RequestMetaSchema, ResultSchema } from "./base.js";

export {
  type PromptReference,
  PromptReferenceSchema,
  type ResourceTemplateReference,
  ResourceTemplateReferenceSchema,
} from "../2025-06-18/completion.js";

/** Params of `completion/complete` (with the required modern `_meta`). */
export const CompleteRequestParamsSchema = PreviousCompleteRequestParamsSchema.extend({
  _meta: RequestMetaSchema,
});
/** Params of `completion/complete`. */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete`. */
export const CompleteRequestSchema = defineRequestSchema(
  "completion/complete",
  CompleteRequestParamsSchema,
);
/** `completion/complete`. */
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/** Result of `completion/complete`; at most 100 values. */
export const CompleteResultSchema = ResultSchema.extend({
  completion: z.looseObject({
    values: z.array(z.string()).max(100),
    total: z.number().int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
/** Result of `completion/complete`. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;
