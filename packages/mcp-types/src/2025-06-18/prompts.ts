import { z } from "zod";
import {
  ListPromptsResultSchema as PreviousListPromptsResultSchema,
  PromptArgumentSchema as PreviousPromptArgumentSchema,
  PromptSchema as PreviousPromptSchema,
} from "../2024-11-05/prompts.js";
import {
  GetPromptResultSchema as PreviousGetPromptResultSchema,
  PromptMessageSchema as PreviousPromptMessageSchema,
} from "../2025-03-26/prompts.js";
import { MetaSchema } from "../shared/primitives.js";
import { ContentBlockSchema } from "./content.js";

export {
  type GetPromptRequest,
  type GetPromptRequestParams,
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
  type ListPromptsRequest,
  ListPromptsRequestParamsSchema,
  ListPromptsRequestSchema,
  type PromptListChangedNotification,
  PromptListChangedNotificationSchema,
} from "../2025-03-26/prompts.js";

/** An argument a prompt template accepts: plus `title`. */
export const PromptArgumentSchema = PreviousPromptArgumentSchema.extend({
  title: z.string().optional(),
});
/** An argument a prompt template accepts. */
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt: 2025-03-26's plus `title` and `_meta`. */
export const PromptSchema = PreviousPromptSchema.extend({
  title: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  _meta: MetaSchema.optional(),
});
/** A prompt or prompt template. */
export type Prompt = z.infer<typeof PromptSchema>;

/** A message of a prompt: any 2025-06-18 content block. */
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
