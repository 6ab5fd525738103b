import { z } from "zod";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import { JSONObjectSchema, RoleSchema } from "../shared/primitives.js";
import { RequestParamsSchema, ResultSchema } from "./base.js";
import { ImageContentSchema, TextContentSchema } from "./content.js";

const samplingContentSchema = z.discriminatedUnion("type", [TextContentSchema, ImageContentSchema]);
/** The zod type of {@link SamplingContentSchema}, named so that declarations refer to it. */
export interface SamplingContentSchemaType extends SchemaType<typeof samplingContentSchema> {}
/** Content of a sampling message in 2024-11-05: text or image. */
export const SamplingContentSchema: SamplingContentSchemaType = samplingContentSchema;
/** Content of a sampling message. */
export type SamplingContent = z.infer<typeof SamplingContentSchema>;

const samplingMessageSchema = z.looseObject({
  role: RoleSchema,
  content: SamplingContentSchema,
});
/** The zod type of {@link SamplingMessageSchema}, named so that declarations refer to it. */
export interface SamplingMessageSchemaType extends SchemaType<typeof samplingMessageSchema> {}
/** A message to or from an LLM. */
export const SamplingMessageSchema: SamplingMessageSchemaType = samplingMessageSchema;
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

const createMessageRequestParamsSchema = RequestParamsSchema.extend({
  messages: z.array(SamplingMessageSchema),
  modelPreferences: ModelPreferencesSchema.optional(),
  systemPrompt: z.string().optional(),
  includeContext: z.enum(["none", "thisServer", "allServers"]).optional(),
  temperature: z.number().optional(),
  maxTokens: z.number().int(),
  stopSequences: z.array(z.string()).optional(),
  metadata: JSONObjectSchema.optional(),
});
/** The zod type of {@link CreateMessageRequestParamsSchema}, named so that declarations refer to it. */
export interface CreateMessageRequestParamsSchemaType
  extends SchemaType<typeof createMessageRequestParamsSchema> {}
/** Params of `sampling/createMessage`. */
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
/** `sampling/createMessage`, a server-to-client request. */
export const CreateMessageRequestSchema: CreateMessageRequestSchemaType =
  createMessageRequestSchema;
/** `sampling/createMessage`. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

const createMessageResultSchema = ResultSchema.extend({
  role: RoleSchema,
  content: SamplingContentSchema,
  model: z.string(),
  stopReason: z.string().optional(),
});
/** The zod type of {@link CreateMessageResultSchema}, named so that declarations refer to it. */
export interface CreateMessageResultSchemaType
  extends SchemaType<typeof createMessageResultSchema> {}
/** Result of `sampling/createMessage`; `stopReason` is an open string. */
export const CreateMessageResultSchema: CreateMessageResultSchemaType = createMessageResultSchema;
/** Result of `sampling/createMessage`. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
