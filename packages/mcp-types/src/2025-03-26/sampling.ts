import { z } from "zod";
import { ImageContentSchema, TextContentSchema } from "../2024-11-05/content.js";
import {
  CreateMessageRequestParamsSchema as PreviousCreateMessageRequestParamsSchema,
  CreateMessageResultSchema as PreviousCreateMessageResultSchema,
  SamplingMessageSchema as PreviousSamplingMessageSchema,
} from "../2024-11-05/sampling.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import { AudioContentSchema } from "./content.js";

export {
  type ModelHint,
  ModelHintSchema,
  type ModelPreferences,
  ModelPreferencesSchema,
} from "../2024-11-05/sampling.js";

const samplingContentSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
]);
/** The zod type of {@link SamplingContentSchema}, named so that declarations refer to it. */
export interface SamplingContentSchemaType extends SchemaType<typeof samplingContentSchema> {}
/** Content of a sampling message: text, image or (new) audio. */
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

const createMessageRequestParamsSchema = PreviousCreateMessageRequestParamsSchema.extend({
  messages: z.array(SamplingMessageSchema),
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
/** `sampling/createMessage`. */
export const CreateMessageRequestSchema: CreateMessageRequestSchemaType =
  createMessageRequestSchema;
/** `sampling/createMessage`. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

const createMessageResultSchema = PreviousCreateMessageResultSchema.extend({
  content: SamplingContentSchema,
});
/** The zod type of {@link CreateMessageResultSchema}, named so that declarations refer to it. */
export interface CreateMessageResultSchemaType
  extends SchemaType<typeof createMessageResultSchema> {}
/** Result of `sampling/createMessage`. */
export const CreateMessageResultSchema: CreateMessageResultSchemaType = createMessageResultSchema;
/** Result of `sampling/createMessage`. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
