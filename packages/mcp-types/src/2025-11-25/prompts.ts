import { z } from "zod";
import {
  GetPromptResultSchema as PreviousGetPromptResultSchema,
  ListPromptsResultSchema as PreviousListPromptsResultSchema,
  PromptMessageSchema as PreviousPromptMessageSchema,
  PromptSchema as PreviousPromptSchema,
} from "../2025-06-18/prompts.js";
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

/** A prompt: 2025-06-18's plus `icons`. */
export const PromptSchema = PreviousPromptSchema.extend({ icons: IconsSchema.optional() });
/** A prompt or prompt template. */
export type Prompt = z.infer<typeof PromptSchema>;

/** A message of a prompt. */
export const PromptMessageSchema = PreviousPromptMessageSchema.extend({
  content: ContentBlockSchema,
});
/** A message of a prompt. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** Result of `prompts/list`. */
export const ListPromptsResultSchema = PreviousListPromptsResultSchema.extend({
  prompts: z.array(PromptSchema),
});
/** Result of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** Result of `prompts/get`. */
export const GetPromptResultSchema = PreviousGetPromptResultSchema.extend({
  messages: z.array(PromptMessageSchema),
});
/** Result of `prompts/get`. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
