import { z } from "zod";
import {
  CreateMessageRequestParamsSchema as PreviousCreateMessageRequestParamsSchema,
  CreateMessageResultSchema as PreviousCreateMessageResultSchema,
  SamplingMessageSchema as PreviousSamplingMessageSchema,
  samplingMessagesSchema,
} from "../2025-11-25/sampling.js";
import { defineRequestSchema } from "../shared/define.js";
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

/** A block of a sampling message. */
export const SamplingMessageContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
/** A block of a sampling message. */
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

/** Content of a sampling message: one block or an array. */
export const SamplingContentSchema = z.union([
  SamplingMessageContentBlockSchema,
  z.array(SamplingMessageContentBlockSchema),
]);
/** Content of a sampling message. */
export type SamplingContent = z.infer<typeof SamplingContentSchema>;

/** A message to or from an LLM. */
export const SamplingMessageSchema = PreviousSamplingMessageSchema.extend({
  content: SamplingContentSchema,
});
/** A message to or from an LLM. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** Params of a `sampling/createMessage` input request (`task` is gone). */
export const CreateMessageRequestParamsSchema = PreviousCreateMessageRequestParamsSchema.omit({
  task: true,
}).extend({
  messages: samplingMessagesSchema(SamplingMessageSchema),
  tools: z.array(ToolSchema).optional(),
});
/** Params of `sampling/createMessage`. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** A `sampling/createMessage` input request. */
export const CreateMessageRequestSchema = defineRequestSchema(
  "sampling/createMessage",
  CreateMessageRequestParamsSchema,
);
/** A `sampling/createMessage` input request. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/** The client's sampled message (an input response; no `resultType`). */
export const CreateMessageResultSchema = PreviousCreateMessageResultSchema.extend({
  content: SamplingContentSchema,
});
/** The client's sampled message. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
