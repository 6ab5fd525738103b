import { z } from "zod";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import { RoleSchema } from "../shared/primitives.js";
import {
  NotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  RequestParamsSchema,
  ResultSchema,
} from "./base.js";
import { ContentBlockSchema } from "./content.js";

/** An argument a prompt template accepts. */
export const PromptArgumentSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
/** An argument a prompt template accepts. */
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt or prompt template the server offers. */
export const PromptSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
});
/** A prompt or prompt template. */
export type Prompt = z.infer<typeof PromptSchema>;

const promptMessageSchema = z.looseObject({
  role: RoleSchema,
  content: ContentBlockSchema,
});
/** The zod type of {@link PromptMessageSchema}, named so that declarations refer to it. */
export interface PromptMessageSchemaType extends SchemaType<typeof promptMessageSchema> {}
/** A message of a prompt. */
export const PromptMessageSchema: PromptMessageSchemaType = promptMessageSchema;
/** A message of a prompt. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** Params of `prompts/list` (optional). */
export const ListPromptsRequestParamsSchema = PaginatedRequestParamsSchema.optional();
/** `prompts/list`. */
export const ListPromptsRequestSchema = defineRequestSchema(
  "prompts/list",
  ListPromptsRequestParamsSchema,
);
/** `prompts/list`. */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

const listPromptsResultSchema = PaginatedResultSchema.extend({
  prompts: z.array(PromptSchema),
});
/** The zod type of {@link ListPromptsResultSchema}, named so that declarations refer to it. */
export interface ListPromptsResultSchemaType extends SchemaType<typeof listPromptsResultSchema> {}
/** Result of `prompts/list`. */
export const ListPromptsResultSchema: ListPromptsResultSchemaType = listPromptsResultSchema;
/** Result of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** Params of `prompts/get`; argument values are strings. */
export const GetPromptRequestParamsSchema = RequestParamsSchema.extend({
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

const getPromptResultSchema = ResultSchema.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
/** The zod type of {@link GetPromptResultSchema}, named so that declarations refer to it. */
export interface GetPromptResultSchemaType extends SchemaType<typeof getPromptResultSchema> {}
/** Result of `prompts/get`. */
export const GetPromptResultSchema: GetPromptResultSchemaType = getPromptResultSchema;
/** Result of `prompts/get`. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** `notifications/prompts/list_changed`. */
export const PromptListChangedNotificationSchema = defineNotificationSchema(
  "notifications/prompts/list_changed",
  NotificationParamsSchema.optional(),
);
/** `notifications/prompts/list_changed`. */
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;
