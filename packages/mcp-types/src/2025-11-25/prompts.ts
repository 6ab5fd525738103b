import { z } from "zod";
import {
  GetPromptResultSchema as PreviousGetPromptResultSchema,
  ListPromptsResultSchema as PreviousListPromptsResultSchema,
  PromptMessageSchema as PreviousPromptMessageSchema,
  PromptSchema as PreviousPromptSchema,
} from "../2025-06-18/prompts.js";
import type { SchemaType } from "../shared/define.js";
import { IconsSchema } from "./base.js";
import { ContentBlockSchema } from "./content.js";

export {
  type GetPromptRequest,
  type GetPromptRequestParams,
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
  type ListPromptsRequest,
  ListPromptsRequestParamsSchema,
  ListPromptsRequestSchema,
  type PromptArgument,
  PromptArgumentSchema,
  type PromptListChangedNotification,
  PromptListChangedNotificationSchema,
} from "../2025-06-18/prompts.js";

const promptSchema = PreviousPromptSchema.extend({ icons: IconsSchema.optional() });
/** The zod type of {@link PromptSchema}, named so that declarations refer to it. */
export interface PromptSchemaType extends SchemaType<typeof promptSchema> {}
/** A prompt: 2025-06-18's plus `icons`. */
export const PromptSchema: PromptSchemaType = promptSchema;
/** A prompt or prompt template. */
export type Prompt = z.infer<typeof PromptSchema>;

const promptMessageSchema = PreviousPromptMessageSchema.extend({
  content: ContentBlockSchema,
});
/** The zod type of {@link PromptMessageSchema}, named so that declarations refer to it. */
export interface PromptMessageSchemaType extends SchemaType<typeof promptMessageSchema> {}
/** A message of a prompt. */
export const PromptMessageSchema: PromptMessageSchemaType = promptMessageSchema;
/** A message of a prompt. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

const listPromptsResultSchema = PreviousListPromptsResultSchema.extend({
  prompts: z.array(PromptSchema),
});
/** The zod type of {@link ListPromptsResultSchema}, named so that declarations refer to it. */
export interface ListPromptsResultSchemaType extends SchemaType<typeof listPromptsResultSchema> {}
/** Result of `prompts/list`. */
export const ListPromptsResultSchema: ListPromptsResultSchemaType = listPromptsResultSchema;
/** Result of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

const getPromptResultSchema = PreviousGetPromptResultSchema.extend({
  messages: z.array(PromptMessageSchema),
});
/** The zod type of {@link GetPromptResultSchema}, named so that declarations refer to it. */
export interface GetPromptResultSchemaType extends SchemaType<typeof getPromptResultSchema> {}
/** Result of `prompts/get`. */
export const GetPromptResultSchema: GetPromptResultSchemaType = getPromptResultSchema;
/** Result of `prompts/get`. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
