import { z } from "zod";
import { PromptMessageSchema, PromptSchema } from "../2025-11-25/prompts.js";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
import {
  OptionalNotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  ResultSchema,
} from "./base.js";
import { InputResponseRequestParamsSchema } from "./input-required.js";

export {
  type PromptArgument,
  PromptArgumentSchema,
} from "../2025-06-18/prompts.js";
export {
  type Prompt,
  type PromptMessage,
  PromptMessageSchema,
  PromptSchema,
} from "../2025-11-25/prompts.js";

/** Params of `prompts/list`. */
export const ListPromptsRequestParamsSchema = PaginatedRequestParamsSchema;
/** `prompts/list`. */
export const ListPromptsRequestSchema = defineRequestSchema(
  "prompts/list",
  ListPromptsRequestParamsSchema,
);
/** `prompts/list`. */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

/** Result of `prompts/list` (cacheable). */
export const ListPromptsResultSchema = PaginatedResultSchema.extend({
  prompts: z.array(PromptSchema),
});
/** Result of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** Params of `prompts/get`. */
export const GetPromptRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
});
/** Params of `prompts/get`. */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/get`. */
export const GetPromptRequestSchema = defineRequestSchema(
  "prompts/get",
  GetPromptRequestParamsSchema,
);
/** `prompts/get`. */
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

/** Complete result of `prompts/get`. */
export const GetPromptResultSchema = ResultSchema.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
/** Result of `prompts/get`. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** `notifications/prompts/list_changed`. */
export const PromptListChangedNotificationSchema = defineNotificationSchema(
  "notifications/prompts/list_changed",
  OptionalNotificationParamsSchema,
);
/** `notifications/prompts/list_changed`. */
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;
