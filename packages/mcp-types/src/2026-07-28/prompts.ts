import { z } from "zod";
import { PromptMessageSchema, PromptSchema } from "../2025-11-25/prompts.js";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
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

const listPromptsRequestParamsSchema = PaginatedRequestParamsSchema;
/** The zod type of {@link ListPromptsRequestParamsSchema}, named so that declarations refer to it. */
export interface ListPromptsRequestParamsSchemaType
  extends SchemaType<typeof listPromptsRequestParamsSchema> {}
/** Params of `prompts/list`. */
export const ListPromptsRequestParamsSchema: ListPromptsRequestParamsSchemaType =
  listPromptsRequestParamsSchema;
const listPromptsRequestSchema = defineRequestSchema(
  "prompts/list",
  ListPromptsRequestParamsSchema,
);
/** The zod type of {@link ListPromptsRequestSchema}, named so that declarations refer to it. */
export interface ListPromptsRequestSchemaType extends SchemaType<typeof listPromptsRequestSchema> {}
/** `prompts/list`. */
export const ListPromptsRequestSchema: ListPromptsRequestSchemaType = listPromptsRequestSchema;
/** `prompts/list`. */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

const listPromptsResultSchema = PaginatedResultSchema.extend({
  prompts: z.array(PromptSchema),
});
/** The zod type of {@link ListPromptsResultSchema}, named so that declarations refer to it. */
export interface ListPromptsResultSchemaType extends SchemaType<typeof listPromptsResultSchema> {}
/** Result of `prompts/list` (cacheable). */
export const ListPromptsResultSchema: ListPromptsResultSchemaType = listPromptsResultSchema;
/** Result of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

const getPromptRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
});
/** The zod type of {@link GetPromptRequestParamsSchema}, named so that declarations refer to it. */
export interface GetPromptRequestParamsSchemaType
  extends SchemaType<typeof getPromptRequestParamsSchema> {}
/** Params of `prompts/get`. */
export const GetPromptRequestParamsSchema: GetPromptRequestParamsSchemaType =
  getPromptRequestParamsSchema;
/** Params of `prompts/get`. */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

const getPromptRequestSchema = defineRequestSchema("prompts/get", GetPromptRequestParamsSchema);
/** The zod type of {@link GetPromptRequestSchema}, named so that declarations refer to it. */
export interface GetPromptRequestSchemaType extends SchemaType<typeof getPromptRequestSchema> {}
/** `prompts/get`. */
export const GetPromptRequestSchema: GetPromptRequestSchemaType = getPromptRequestSchema;
/** `prompts/get`. */
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

const getPromptResultSchema = ResultSchema.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
/** The zod type of {@link GetPromptResultSchema}, named so that declarations refer to it. */
export interface GetPromptResultSchemaType extends SchemaType<typeof getPromptResultSchema> {}
/** Complete result of `prompts/get`. */
export const GetPromptResultSchema: GetPromptResultSchemaType = getPromptResultSchema;
/** Result of `prompts/get`. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** `notifications/prompts/list_changed`. */
export const PromptListChangedNotificationSchema = defineNotificationSchema(
  "notifications/prompts/list_changed",
  OptionalNotificationParamsSchema,
);
/** `notifications/prompts/list_changed`. */
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;
