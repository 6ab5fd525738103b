import { z } from "zod";
import {
  GetPromptResultSchema as PreviousGetPromptResultSchema,
  PromptMessageSchema as PreviousPromptMessageSchema,
} from "../2024-11-05/prompts.js";
import { ContentBlockSchema } from "./content.js";

export {
  PromptArgumentSchema,
  PromptSchema,
  ListPromptsRequestParamsSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
  PromptListChangedNotificationSchema,
  type PromptArgument,
  type Prompt,
  type ListPromptsRequest,
  type ListPromptsResult,
  type GetPromptRequestParams,
  type GetPromptRequest,
  type PromptListChangedNotification,
} from "../2024-11-05/prompts.js";

/** A message of a prompt: content may now hold audio. */
export const PromptMessageSchema = PreviousPromptMessageSchema.extend({
  content: ContentBlockSchema,
});
/** A message of a prompt. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** Result of `prompts/get`. */
export const GetPromptResultSchema = PreviousGetPromptResultSchema.extend({
  messages: z.array(PromptMessageSchema),
});
/** Result of `prompts/get`. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
