import { z } from "zod";
import {
  CreateMessageRequestParamsSchema as PreviousCreateMessageRequestParamsSchema,
  CreateMessageResultSchema as PreviousCreateMessageResultSchema,
  SamplingMessageSchema as PreviousSamplingMessageSchema,
  samplingMessagesSchema,
} from "../2025-11-25/sampling.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import {
  AudioContentSchema,
  ImageContentSchema,
  TextContentSchema,
  ToolResultContentSchema,
  ToolUseContentSchema,
} from "./content.js";
import { ToolSchema } from "./tool.js";

export {
  type ModelHint,
  ModelHintSchema,
  type ModelPreferences,
  ModelPreferencesSchema,
} from "../2024-11-05/sampling.js";
export { type ToolChoice, ToolChoiceSchema } from "../2025-11-25/sampling.js";

/*
 * Revision 2026-07-28: sampling is deprecated and only reaches the client as an input request of
 * an `InputRequiredResult` (no JSON-RPC id, no task augmentation).
 */

const samplingMessageContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
/** The zod type of {@link SamplingMessageContentBlockSchema}, named so that declarations refer to it. */
export interface SamplingMessageContentBlockSchemaType
  extends SchemaType<typeof samplingMessageContentBlockSchema> {}
/** A block of a sampling message. */
export const SamplingMessageContentBlockSchema: SamplingMessageContentBlockSchemaType =
  samplingMessageContentBlockSchema;
/** A block of a sampling message. */
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

const samplingContentSchema = z.union([
  SamplingMessageContentBlockSchema,
  z.array(SamplingMessageContentBlockSchema),
]);
/** The zod type of {@link SamplingContentSchema}, named so that declarations refer to it. */
export interface SamplingContentSchemaType extends SchemaType<typeof samplingContentSchema> {}
/** Content of a sampling message: one block or an array. */
export const SamplingContentSchema: SamplingContentSchemaType = samplingContentSchema;
/** Content of a sampling message. */
export type SamplingContent = z.infer<typeof SamplingContentSchema>;

const samplingMessageSchema = PreviousSamplingMessageSchema.extend({
  content: SamplingContentSchema,
});
/** The zod type of {@link SamplingMessageSchema}, named so that declarations refer to it. */
export interface SamplingMessageSchemaType extends SchemaType<typeof samplingMessageSchema> {}
/** A message to or from an LLM. */
export const SamplingMessageSchema: SamplingMessageSchemaType = samplingMessageSchema;
/** A message to or from an LLM. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

const createMessageRequestParamsSchema = PreviousCreateMessageRequestParamsSchema.omit({
  task: true,
}).extend({
  messages: samplingMessagesSchema(SamplingMessageSchema),
  tools: z.array(ToolSchema).optional(),
});
/** The zod type of {@link CreateMessageRequestParamsSchema}, named so that declarations refer to it. */
export interface CreateMessageRequestParamsSchemaType
  extends SchemaType<typeof createMessageRequestParamsSchema> {}
/** Params of a `sampling/createMessage` input request (`task` is gone). */
export const CreateMessageRequestParamsSchema: CreateMessageRequestParamsSchemaType =
  createMessageRequestParamsSchema;
/** Params of `sampling/createMessage`. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

const createMessageRequestSchema = defineRequestSchema(
  "sampling/createMessage",
  CreateMessageRequestParamsSchema,
);
/** The zod type of {@link CreateMessageRequestSchema}, named so that declarations refer to it. */
export interface CreateMessageRequestSchemaType
  extends SchemaType<typeof createMessageRequestSchema> {}
/** A `sampling/createMessage` input request. */
export const CreateMessageRequestSchema: CreateMessageRequestSchemaType =
  createMessageRequestSchema;
/** A `sampling/createMessage` input request. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

const createMessageResultSchema = PreviousCreateMessageResultSchema.extend({
  content: SamplingContentSchema,
});
/** The zod type of {@link CreateMessageResultSchema}, named so that declarations refer to it. */
export interface CreateMessageResultSchemaType
  extends SchemaType<typeof createMessageResultSchema> {}
/** The client's sampled message (an input response; no `resultType`). */
export const CreateMessageResultSchema: CreateMessageResultSchemaType = createMessageResultSchema;
/** The client's sampled message. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
