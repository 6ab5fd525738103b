import { z } from "zod";
import { defineRequestSchema } from "../shared/define.js";
import { JSONObjectSchema, RoleSchema } from "../shared/primitives.js";
import { RequestParamsSchema, ResultSchema } from "./base.js";
import { ImageContentSchema, TextContentSchema } from "./content.js";

/** Content of a sampling message in 2024-11-05: text or image. */
export const SamplingContentSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
]);
/** Content of a sampling message. */
export type SamplingContent = z.infer<typeof SamplingContentSchema>;

/** A message to or from an LLM. */
export const SamplingMessageSchema = z.looseObject({
  role: RoleSchema,
  content: SamplingContentSchema,
});
/** A message to or from an LLM. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** A hint for model selection. */
export const ModelHintSchema = z.looseObject({ name: z.string().optional() });
/** A hint for model selection. */
export type ModelHint = z.infer<typeof ModelHintSchema>;

/** The server's model preferences; priorities are between 0 and 1. */
export const ModelPreferencesSchema = z.looseObject({
  hints: z.array(ModelHintSchema).optional(),
  costPriority: z.number().min(0).max(1).optional(),
  speedPriority: z.number().min(0).max(1).optional(),
  intelligencePriority: z.number().min(0).max(1).optional(),
});
/** The server's model preferences. */
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** Params of `sampling/createMessage`. */
export const CreateMessageRequestParamsSchema = RequestParamsSchema.extend({
  messages: z.array(SamplingMessageSchema),
  modelPreferences: ModelPreferencesSchema.optional(),
  systemPrompt: z.string().optional(),
  includeContext: z.enum(["none", "thisServer", "allServers"]).optional(),
  temperature: z.number().optional(),
  maxTokens: z.number().int(),
  stopSequences: z.array(z.string()).optional(),
  metadata: JSONObjectSchema.optional(),
});
/** Params of `sampling/createMessage`. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** `sampling/createMessage`, a server-to-client request. */
export const CreateMessageRequestSchema = defineRequestSchema(
  "sampling/createMessage",
  CreateMessageRequestParamsSchema,
);
/** `sampling/createMessage`. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/** Result of `sampling/createMessage`; `stopReason` is an open string. */
export const CreateMessageResultSchema = ResultSchema.extend({
  role: RoleSchema,
  content: SamplingContentSchema,
  model: z.string(),
  stopReason: z.string().optional(),
});
/** Result of `sampling/createMessage`. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
