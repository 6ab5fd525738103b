import { z } from "zod";
import {
  GetPromptResultSchema as PreviousGetPromptResultSchema,
  PromptMessageSchema as PreviousPromptMessageSchema,
} from "../2024-11-05/prompts.js";
import type { SchemaType } from "../shared/define.js";
import { ContentBlockSchema } from "./content.js";

export {
  type GetPromptRequest,
  type GetPromptRequestParams,
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
  type ListPromptsRequest,
  ListPromptsRequestParamsSchema,
  ListPromptsRequestSchema,
  type ListPromptsResult,
  ListPromptsResultSchema,
  type Prompt,
  type PromptArgument,
  PromptArgumentSchema,
  type PromptListChangedNotification,
  PromptListChangedNotificationSchema,
  PromptSchema,
} from "../2024-11-05/prompts.js";

const promptMessageSchema = PreviousPromptMessageSchema.extend({
  content: ContentBlockSchema,
});
/** The zod type of {@link PromptMessageSchema}, named so that declarations refer to it. */
export interface PromptMessageSchemaType extends SchemaType<typeof promptMessageSchema> {}
/** A message of a prompt: content may now hold audio. */
export const PromptMessageSchema: PromptMessageSchemaType = promptMessageSchema;
/** A message of a prompt. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

const getPromptResultSchema = PreviousGetPromptResultSchema.extend({
  messages: z.array(PromptMessageSchema),
});
/** The zod type of {@link GetPromptResultSchema}, named so that declarations refer to it. */
export interface GetPromptResultSchemaType extends SchemaType<typeof getPromptResultSchema> {}
/** Result of `prompts/get`. */
export const GetPromptResultSchema: GetPromptResultSchemaType = getPromptResultSchema;
/** Result of `prompts/get`. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
