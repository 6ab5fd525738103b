import { z } from "zod";
import { ImageContentSchema, TextContentSchema } from "../2024-11-05/content.js";
import {
  CreateMessageRequestParamsSchema as PreviousCreateMessageRequestParamsSchema,
  CreateMessageResultSchema as PreviousCreateMessageResultSchema,
  SamplingMessageSchema as PreviousSamplingMessageSchema,
} from "../2024-11-05/sampling.js";
import { defineRequestSchema } from "../shared/define.js";
import { AudioContentSchema } from "./content.js";

export {
  type ModelHint,
  ModelHintSchema,
  type ModelPreferences,
  ModelPreferencesSchema,
} from "../2024-11-05/sampling.js";

/** Content of a sampling message: text, image or (new) audio. */
export const SamplingContentSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
]);
/** Content of a sampling message. */
export type SamplingContent = z.infer<typeof SamplingContentSchema>;

/** A message to or from an LLM. */
export const SamplingMessageSchema = PreviousSamplingMessageSchema.extend({
  content: SamplingContentSchema,
});
/** A message to or from an LLM. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** Params of `sampling/createMessage`. */
export const CreateMessageRequestParamsSchema = PreviousCreateMessageRequestParamsSchema.extend({
  messages: z.array(SamplingMessageSchema),
});
/** Params of `sampling/createMessage`. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** `sampling/createMessage`. */
export const CreateMessageRequestSchema = defineRequestSchema(
  "sampling/createMessage",
  CreateMessageRequestParamsSchema,
);
/** `sampling/createMessage`. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/** Result of `sampling/createMessage`. */
export const CreateMessageResultSchema = PreviousCreateMessageResultSchema.extend({
  content: SamplingContentSchema,
});
/** Result of `sampling/createMessage`. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
