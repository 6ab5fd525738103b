import { z } from "zod";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import { RequestParamsSchema, ResultSchema } from "./base.js";

/** Identifies a prompt to complete an argument of. */
export const PromptReferenceSchema = z.looseObject({
  type: z.literal("ref/prompt"),
  name: z.string(),
});
/** Identifies a prompt. */
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** Identifies a resource (template) to complete a URI variable of ("ResourceReference"). */
export const ResourceReferenceSchema = z.looseObject({
  type: z.literal("ref/resource"),
  uri: z.string(),
});
/** Identifies a resource or resource template. */
export type ResourceReference = z.infer<typeof ResourceReferenceSchema>;

const completeRequestParamsSchema = RequestParamsSchema.extend({
  ref: z.discriminatedUnion("type", [PromptReferenceSchema, ResourceReferenceSchema]),
  argument: z.looseObject({ name: z.string(), value: z.string() }),
});
/** The zod type of {@link CompleteRequestParamsSchema}, named so that declarations refer to it. */
export interface CompleteRequestParamsSchemaType
  extends SchemaType<typeof completeRequestParamsSchema> {}
/** Params of `completion/complete`. */
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

/** Result of `completion/complete`; at most 100 values (spec MUST). */
export const CompleteResultSchema = ResultSchema.extend({
  completion: z.looseObject({
    values: z.array(z.string()).max(100),
    total: z.number().int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
/** Result of `completion/complete`. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;
