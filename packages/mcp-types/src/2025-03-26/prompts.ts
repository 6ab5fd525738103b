import { z } from "zod";
import {
  GetPromptResultSchema as PreviousGetPromptResultSchema,
  PromptMessageSchema as PreviousPromptMessageSchema,
} from "../2024-11-05/prompts.js";
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
