import { z } from "zod";
import type { SchemaType } from "../shared/define.js";
import { RequestParamsSchema, ResultSchema } from "./base.js";
import { ElicitRequestSchema, ElicitResultSchema } from "./elicitation.js";
import { ListRootsRequestSchema, ListRootsResultSchema } from "./roots.js";
import { CreateMessageRequestSchema, CreateMessageResultSchema } from "./sampling.js";

/* Revision 2026-07-28: multi round-trip requests (MRTR) replace server-to-client requests. */

const inputRequestSchema = z.discriminatedUnion("method", [
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  ElicitRequestSchema,
]);
/** The zod type of {@link InputRequestSchema}, named so that declarations refer to it. */
export interface InputRequestSchemaType extends SchemaType<typeof inputRequestSchema> {}
/** A request the server needs the client to fulfil before it retries (no JSON-RPC id). */
export const InputRequestSchema: InputRequestSchemaType = inputRequestSchema;
/** A request the server needs the client to fulfil. */
export type InputRequest = z.infer<typeof InputRequestSchema>;

const inputResponseSchema = z.union([
  ElicitResultSchema,
  ListRootsResultSchema,
  CreateMessageResultSchema,
]);
/** The zod type of {@link InputResponseSchema}, named so that declarations refer to it. */
export interface InputResponseSchemaType extends SchemaType<typeof inputResponseSchema> {}
/** The client's answer to one input request. */
export const InputResponseSchema: InputResponseSchemaType = inputResponseSchema;
/** The client's answer to one input request. */
export type InputResponse = z.infer<typeof InputResponseSchema>;

const inputRequestsSchema = z.record(z.string(), InputRequestSchema);
/** The zod type of {@link InputRequestsSchema}, named so that declarations refer to it. */
export interface InputRequestsSchemaType extends SchemaType<typeof inputRequestsSchema> {}
/** Input requests keyed by server-assigned identifiers. */
export const InputRequestsSchema: InputRequestsSchemaType = inputRequestsSchema;
/** Input requests keyed by server-assigned identifiers. */
export type InputRequests = z.infer<typeof InputRequestsSchema>;

const inputResponsesSchema = z.record(z.string(), InputResponseSchema);
/** The zod type of {@link InputResponsesSchema}, named so that declarations refer to it. */
export interface InputResponsesSchemaType extends SchemaType<typeof inputResponsesSchema> {}
/** Input responses keyed like the input requests they answer. */
export const InputResponsesSchema: InputResponsesSchemaType = inputResponsesSchema;
/** Input responses keyed like the input requests they answer. */
export type InputResponses = z.infer<typeof InputResponsesSchema>;

const inputRequiredResultSchema = ResultSchema.extend({
  resultType: z.literal("input_required"),
  inputRequests: InputRequestsSchema.optional(),
  requestState: z.string().optional(),
}).refine((value) => value.inputRequests !== undefined || value.requestState !== undefined, {
  message: "an input_required result needs inputRequests or requestState",
});
/** The zod type of {@link InputRequiredResultSchema}, named so that declarations refer to it. */
export interface InputRequiredResultSchemaType
  extends SchemaType<typeof inputRequiredResultSchema> {}
/**
 * The server needs more input: the client fulfils `inputRequests` and retries the original request
 * with a new id, `inputResponses` and the echoed `requestState`. At least one of the two MUST be
 * present.
 */
export const InputRequiredResultSchema: InputRequiredResultSchemaType = inputRequiredResultSchema;
/** The server needs more input. */
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;

const inputResponseRequestParamsSchema = RequestParamsSchema.extend({
  inputResponses: InputResponsesSchema.optional(),
  requestState: z.string().optional(),
});
/** The zod type of {@link InputResponseRequestParamsSchema}, named so that declarations refer to it. */
export interface InputResponseRequestParamsSchemaType
  extends SchemaType<typeof inputResponseRequestParamsSchema> {}
/** Params of a request that may answer an earlier `InputRequiredResult`. */
export const InputResponseRequestParamsSchema: InputResponseRequestParamsSchemaType =
  inputResponseRequestParamsSchema;
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
