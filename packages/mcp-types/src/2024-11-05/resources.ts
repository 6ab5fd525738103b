import { z } from "zod";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import {
  NotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  RequestParamsSchema,
  ResultSchema,
} from "./base.js";
import { AnnotationsSchema, ResourceContentsUnionSchema } from "./content.js";

const resourceSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
});
/** The zod type of {@link ResourceSchema}, named so that declarations refer to it. */
export interface ResourceSchemaType extends SchemaType<typeof resourceSchema> {}
/** A resource the server can read. */
export const ResourceSchema: ResourceSchemaType = resourceSchema;
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

const resourceTemplateSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
});
/** The zod type of {@link ResourceTemplateSchema}, named so that declarations refer to it. */
export interface ResourceTemplateSchemaType extends SchemaType<typeof resourceTemplateSchema> {}
/** A template (RFC 6570) for resources the server can read. */
export const ResourceTemplateSchema: ResourceTemplateSchemaType = resourceTemplateSchema;
/** A resource template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** Params of `resources/list` (optional). */
export const ListResourcesRequestParamsSchema = PaginatedRequestParamsSchema.optional();
/** `resources/list`. */
export const ListResourcesRequestSchema = defineRequestSchema(
  "resources/list",
  ListResourcesRequestParamsSchema,
);
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

/** Params of `resources/templates/list` (optional). */
export const ListResourceTemplatesRequestParamsSchema = PaginatedRequestParamsSchema.optional();
/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema = defineRequestSchema(
  "resources/templates/list",
  ListResourceTemplatesRequestParamsSchema,
);
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

/** Params of `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
export const ResourceRequestParamsSchema = RequestParamsSchema.extend({ uri: z.string() });
/** Params naming one resource. */
export type ResourceRequestParams = z.infer<typeof ResourceRequestParamsSchema>;

/** Params of `resources/read`. */
export const ReadResourceRequestParamsSchema = ResourceRequestParamsSchema;
/** `resources/read`. */
export const ReadResourceRequestSchema = defineRequestSchema(
  "resources/read",
  ReadResourceRequestParamsSchema,
);
/** `resources/read`. */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

const readResourceResultSchema = ResultSchema.extend({
  contents: z.array(ResourceContentsUnionSchema),
});
/** The zod type of {@link ReadResourceResultSchema}, named so that declarations refer to it. */
export interface ReadResourceResultSchemaType extends SchemaType<typeof readResourceResultSchema> {}
/** Result of `resources/read`. */
export const ReadResourceResultSchema: ReadResourceResultSchemaType = readResourceResultSchema;
/** Result of `resources/read`. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** Params of `resources/subscribe`. */
export const SubscribeRequestParamsSchema = ResourceRequestParamsSchema;
/** `resources/subscribe` (legacy only). */
export const SubscribeRequestSchema = defineRequestSchema(
  "resources/subscribe",
  SubscribeRequestParamsSchema,
);
/** `resources/subscribe`. */
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/** Params of `resources/unsubscribe`. */
export const UnsubscribeRequestParamsSchema = ResourceRequestParamsSchema;
/** `resources/unsubscribe` (legacy only). */
export const UnsubscribeRequestSchema = defineRequestSchema(
  "resources/unsubscribe",
  UnsubscribeRequestParamsSchema,
);
/** `resources/unsubscribe`. */
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequestSchema>;

/** `notifications/resources/list_changed`. */
export const ResourceListChangedNotificationSchema = defineNotificationSchema(
  "notifications/resources/list_changed",
  NotificationParamsSchema.optional(),
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
/** `notifications/resources/updated`, sent for subscribed resources. */
export const ResourceUpdatedNotificationSchema = defineNotificationSchema(
  "notifications/resources/updated",
  ResourceUpdatedNotificationParamsSchema,
);
/** `notifications/resources/updated`. */
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;
