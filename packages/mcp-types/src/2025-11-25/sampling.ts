import { z } from "zod";
import {
  AudioContentSchema,
  ImageContentSchema,
  TextContentSchema,
} from "../2025-06-18/content.js";
import {
  CreateMessageRequestParamsSchema as PreviousCreateMessageRequestParamsSchema,
  CreateMessageResultSchema as PreviousCreateMessageResultSchema,
} from "../2025-06-18/sampling.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import { MetaSchema, RoleSchema } from "../shared/primitives.js";
import { TaskMetadataSchema } from "./base.js";
import { ToolResultContentSchema, ToolUseContentSchema } from "./content.js";
import { ToolSchema } from "./tools.js";

export {
  type ModelHint,
  ModelHintSchema,
  type ModelPreferences,
  ModelPreferencesSchema,
} from "../2025-06-18/sampling.js";

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
/** A block of a sampling message: text, image, audio, tool use or tool result. */
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
/** Content of a sampling message: one block or (new in 2025-11-25) an array of blocks. */
export const SamplingContentSchema: SamplingContentSchemaType = samplingContentSchema;
/** Content of a sampling message. */
export type SamplingContent = z.infer<typeof SamplingContentSchema>;

const samplingMessageSchema = z.looseObject({
  role: RoleSchema,
  content: SamplingContentSchema,
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link SamplingMessageSchema}, named so that declarations refer to it. */
export interface SamplingMessageSchemaType extends SchemaType<typeof samplingMessageSchema> {}
/** A message to or from an LLM (plus `_meta`). */
export const SamplingMessageSchema: SamplingMessageSchemaType = samplingMessageSchema;
/** A message to or from an LLM. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/**
 * The `messages` of a sampling request, with the 2025-11-25 MUST: a user message that carries
 * `tool_result` blocks carries nothing else.
 */
export function samplingMessagesSchema<
  Message extends z.ZodType<{ role: string; content: unknown }>,
>(message: Message) {
  return z.array(message).superRefine((messages, context) => {
    messages.forEach((entry, index) => {
      const blocks = Array.isArray(entry.content) ? entry.content : [entry.content];
      const isToolResult = (block: unknown) =>
        (block as { type?: unknown } | null)?.type === "tool_result";
      if (blocks.some(isToolResult) && !blocks.every(isToolResult)) {
        context.addIssue({
          code: "custom",
          path: [index, "content"],
          message: "A message with tool_result content must contain only tool results",
        });
      }
    });
  });
}

/** How the model may use tools during sampling. */
export const ToolChoiceSchema = z.looseObject({
  mode: z.enum(["auto", "required", "none"]).optional(),
});
/** How the model may use tools during sampling. */
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

const createMessageRequestParamsSchema = PreviousCreateMessageRequestParamsSchema.extend({
  messages: samplingMessagesSchema(SamplingMessageSchema),
  tools: z.array(ToolSchema).optional(),
  toolChoice: ToolChoiceSchema.optional(),
  task: TaskMetadataSchema.optional(),
});
/** The zod type of {@link CreateMessageRequestParamsSchema}, named so that declarations refer to it. */
export interface CreateMessageRequestParamsSchemaType
  extends SchemaType<typeof createMessageRequestParamsSchema> {}
/** Params of `sampling/createMessage`: plus `tools`, `toolChoice` and `task`. */
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
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link CreateMessageResultSchema}, named so that declarations refer to it. */
export interface CreateMessageResultSchemaType
  extends SchemaType<typeof createMessageResultSchema> {}
/** Result of `sampling/createMessage`; `stopReason` may be `"toolUse"`. */
export const CreateMessageResultSchema: CreateMessageResultSchemaType = createMessageResultSchema;
/** Result of `sampling/createMessage`. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
