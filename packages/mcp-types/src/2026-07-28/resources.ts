import { z } from "zod";
import { ResourceContentsUnionSchema } from "../2025-06-18/resources.js";
import { ResourceSchema, ResourceTemplateSchema } from "../2025-11-25/resources.js";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import {
  CacheableResultSchema,
  NotificationParamsSchema,
  OptionalNotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
} from "./base.js";
import { InputResponseRequestParamsSchema } from "./input-required.js";

export {
  type BlobResourceContents,
  BlobResourceContentsSchema,
  type ResourceContents,
  ResourceContentsSchema,
  ResourceContentsUnionSchema,
  type TextResourceContents,
  TextResourceContentsSchema,
} from "../2025-06-18/resources.js";
export {
  type Resource,
  ResourceSchema,
  type ResourceTemplate,
  ResourceTemplateSchema,
} from "../2025-11-25/resources.js";

/* Revision 2026-07-28: lists and reads are cacheable; subscribe/unsubscribe are replaced by
 * `subscriptions/listen`; not found is -32602 (no longer -32002). */

const listResourcesRequestParamsSchema = PaginatedRequestParamsSchema;
/** The zod type of {@link ListResourcesRequestParamsSchema}, named so that declarations refer to it. */
export interface ListResourcesRequestParamsSchemaType
  extends SchemaType<typeof listResourcesRequestParamsSchema> {}
/** Params of `resources/list` (required: they carry `_meta`). */
export const ListResourcesRequestParamsSchema: ListResourcesRequestParamsSchemaType =
  listResourcesRequestParamsSchema;
const listResourcesRequestSchema = defineRequestSchema(
  "resources/list",
  ListResourcesRequestParamsSchema,
);
/** The zod type of {@link ListResourcesRequestSchema}, named so that declarations refer to it. */
export interface ListResourcesRequestSchemaType
  extends SchemaType<typeof listResourcesRequestSchema> {}
/** `resources/list`. */
export const ListResourcesRequestSchema: ListResourcesRequestSchemaType =
  listResourcesRequestSchema;
/** `resources/list`. */
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

const listResourcesResultSchema = PaginatedResultSchema.extend({
  resources: z.array(ResourceSchema),
});
/** The zod type of {@link ListResourcesResultSchema}, named so that declarations refer to it. */
export interface ListResourcesResultSchemaType
  extends SchemaType<typeof listResourcesResultSchema> {}
/** Result of `resources/list`. */
export const ListResourcesResultSchema: ListResourcesResultSchemaType = listResourcesResultSchema;
/** Result of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

const listResourceTemplatesRequestParamsSchema = PaginatedRequestParamsSchema;
/** The zod type of {@link ListResourceTemplatesRequestParamsSchema}, named so that declarations refer to it. */
export interface ListResourceTemplatesRequestParamsSchemaType
  extends SchemaType<typeof listResourceTemplatesRequestParamsSchema> {}
/** Params of `resources/templates/list`. */
export const ListResourceTemplatesRequestParamsSchema: ListResourceTemplatesRequestParamsSchemaType =
  listResourceTemplatesRequestParamsSchema;
const listResourceTemplatesRequestSchema = defineRequestSchema(
  "resources/templates/list",
  ListResourceTemplatesRequestParamsSchema,
);
/** The zod type of {@link ListResourceTemplatesRequestSchema}, named so that declarations refer to it. */
export interface ListResourceTemplatesRequestSchemaType
  extends SchemaType<typeof listResourceTemplatesRequestSchema> {}
/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema: ListResourceTemplatesRequestSchemaType =
  listResourceTemplatesRequestSchema;
/** `resources/templates/list`. */
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

const listResourceTemplatesResultSchema = PaginatedResultSchema.extend({
  resourceTemplates: z.array(ResourceTemplateSchema),
});
/** The zod type of {@link ListResourceTemplatesResultSchema}, named so that declarations refer to it. */
export interface ListResourceTemplatesResultSchemaType
  extends SchemaType<typeof listResourceTemplatesResultSchema> {}
/** Result of `resources/templates/list`. */
export const ListResourceTemplatesResultSchema: ListResourceTemplatesResultSchemaType =
  listResourceTemplatesResultSchema;
/** Result of `resources/templates/list`. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

const readResourceRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  uri: z.string(),
});
/** The zod type of {@link ReadResourceRequestParamsSchema}, named so that declarations refer to it. */
export interface ReadResourceRequestParamsSchemaType
  extends SchemaType<typeof readResourceRequestParamsSchema> {}
/** Params of `resources/read` (may carry MRTR `inputResponses` and `requestState`). */
export const ReadResourceRequestParamsSchema: ReadResourceRequestParamsSchemaType =
  readResourceRequestParamsSchema;
/** Params of `resources/read`. */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

const readResourceRequestSchema = defineRequestSchema(
  "resources/read",
  ReadResourceRequestParamsSchema,
);
/** The zod type of {@link ReadResourceRequestSchema}, named so that declarations refer to it. */
export interface ReadResourceRequestSchemaType
  extends SchemaType<typeof readResourceRequestSchema> {}
/** `resources/read`. */
export const ReadResourceRequestSchema: ReadResourceRequestSchemaType = readResourceRequestSchema;
/** `resources/read`. */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

const readResourceResultSchema = CacheableResultSchema.extend({
  contents: z.array(ResourceContentsUnionSchema),
});
/** The zod type of {@link ReadResourceResultSchema}, named so that declarations refer to it. */
export interface ReadResourceResultSchemaType extends SchemaType<typeof readResourceResultSchema> {}
/** Complete result of `resources/read` (cacheable). */
export const ReadResourceResultSchema: ReadResourceResultSchemaType = readResourceResultSchema;
/** Result of `resources/read`. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** `notifications/resources/list_changed` (only on a listen stream that asked for it). */
export const ResourceListChangedNotificationSchema = defineNotificationSchema(
  "notifications/resources/list_changed",
  OptionalNotificationParamsSchema,
);
/** `notifications/resources/list_changed`. */
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/** Params of `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParamsSchema = NotificationParamsSchema.extend({
  uri: z.string(),
});
/** Params of `notifications/resources/updated`. */
export type ResourceUpdatedNotificationParams = z.infer<
  typeof ResourceUpdatedNotificationParamsSchema
>;
/** `notifications/resources/updated`. */
export const ResourceUpdatedNotificationSchema = defineNotificationSchema(
  "notifications/resources/updated",
  ResourceUpdatedNotificationParamsSchema,
);
/** `notifications/resources/updated`. */
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;
