import { z } from "zod";
import { RequestParamsSchema, ResultSchema } from "./base.js";
import { ElicitRequestSchema, ElicitResultSchema } from "./elicitation.js";
import { ListRootsRequestSchema, ListRootsResultSchema } from "./roots.js";
import { CreateMessageRequestSchema, CreateMessageResultSchema } from "./sampling.js";

/* Revision 2026-07-28: multi round-trip requests (MRTR) replace server-to-client requests. */

/** A request the server needs the client to fulfil before it retries (no JSON-RPC id). */
export const InputRequestSchema = z.discriminatedUnion("method", [
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  ElicitRequestSchema,
]);
/** A request the server needs the client to fulfil. */
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** The client's answer to one input request. */
export const InputResponseSchema = z.union([
  ElicitResultSchema,
  ListRootsResultSchema,
  CreateMessageResultSchema,
]);
/** The client's answer to one input request. */
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** Input requests keyed by server-assigned identifiers. */
export const InputRequestsSchema = z.record(z.string(), InputRequestSchema);
/** Input requests keyed by server-assigned identifiers. */
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** Input responses keyed like the input requests they answer. */
export const InputResponsesSchema = z.record(z.string(), InputResponseSchema);
/** Input responses keyed like the input requests they answer. */
export type InputResponses = z.infer<typeof InputResponsesSchema>;

/**
 * The server needs more input: the client fulfils `inputRequests` and retries the original request
 * with a new id, `inputResponses` and the echoed `requestState`. At least one of the two MUST be
 * present.
 */
export const InputRequiredResultSchema = ResultSchema.extend({
  resultType: z.literal("input_required"),
  inputRequests: InputRequestsSchema.optional(),
  requestState: z.string().optional(),
}).refine((value) => value.inputRequests !== undefined || value.requestState !== undefined, {
  message: "an input_required result needs inputRequests or requestState",
});
/** The server needs more input. */
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;

/** Params of a request that may answer an earlier `InputRequiredResult`. */
export const InputResponseRequestParamsSchema = RequestParamsSchema.extend({
  inputResponses: InputResponsesSchema.optional(),
  requestState: z.string().optional(),
});
/** Params of a retried request. */
export type InputResponseRequestParams = z.infer<typeof InputResponseRequestParamsSchema>;

/** The result of a request that may need input: the input-required shape or the complete one. */
export function orInputRequired<Complete extends z.ZodType>(complete: Complete) {
  return z.union([InputRequiredResultSchema, complete]);
}

/** Whether a result asks for more input (`resultType: "input_required"`). */
export function isInputRequiredResult(result: unknown): result is InputRequiredResult {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === "input_required"
  );
}
