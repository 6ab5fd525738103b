import { z } from "zod";
import { ResourceContentsUnionSchema } from "../2025-06-18/resources.js";
import { ResourceSchema, ResourceTemplateSchema } from "../2025-11-25/resources.js";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
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

/** Params of `resources/list` (required: they carry `_meta`). */
export const ListResourcesRequestParamsSchema = PaginatedRequestParamsSchema;
/** `resources/list`. */
export const ListResourcesRequestSchema = defineRequestSchema(
  "resources/list",
  ListResourcesRequestParamsSchema,
);
/** `resources/list`. */
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** Result of `resources/list`. */
export const ListResourcesResultSchema = PaginatedResultSchema.extend({
  resources: z.array(ResourceSchema),
});
/** Result of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** Params of `resources/templates/list`. */
export const ListResourceTemplatesRequestParamsSchema = PaginatedRequestParamsSchema;
/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema = defineRequestSchema(
  "resources/templates/list",
  ListResourceTemplatesRequestParamsSchema,
);
/** `resources/templates/list`. */
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** Result of `resources/templates/list`. */
export const ListResourceTemplatesResultSchema = PaginatedResultSchema.extend({
  resourceTemplates: z.array(ResourceTemplateSchema),
});
/** Result of `resources/templates/list`. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** Params of `resources/read` (may carry MRTR `inputResponses` and `requestState`). */
export const ReadResourceRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  uri: z.string(),
});
/** Params of `resources/read`. */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`. */
export const ReadResourceRequestSchema = defineRequestSchema(
  "resources/read",
  ReadResourceRequestParamsSchema,
);
/** `resources/read`. */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

/** Complete result of `resources/read` (cacheable). */
export const ReadResourceResultSchema = CacheableResultSchema.extend({
  contents: z.array(ResourceContentsUnionSchema),
});
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
