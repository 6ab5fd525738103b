import { z } from "zod";
import {
  ListResourcesResultSchema as PreviousListResourcesResultSchema,
  ListResourceTemplatesResultSchema as PreviousListResourceTemplatesResultSchema,
  ResourceSchema as PreviousResourceSchema,
  ResourceTemplateSchema as PreviousResourceTemplateSchema,
} from "../2025-06-18/resources.js";
import { IconsSchema } from "./base.js";

export {
  type BlobResourceContents,
  BlobResourceContentsSchema,
  type ListResourcesRequest,
  ListResourcesRequestParamsSchema,
  ListResourcesRequestSchema,
  type ListResourceTemplatesRequest,
  ListResourceTemplatesRequestParamsSchema,
  ListResourceTemplatesRequestSchema,
  type ReadResourceRequest,
  ReadResourceRequestParamsSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  ReadResourceResultSchema,
  type ResourceContents,
  ResourceContentsSchema,
  ResourceContentsUnionSchema,
  type ResourceListChangedNotification,
  ResourceListChangedNotificationSchema,
  type ResourceRequestParams,
  ResourceRequestParamsSchema,
  type ResourceUpdatedNotification,
  type ResourceUpdatedNotificationParams,
  ResourceUpdatedNotificationParamsSchema,
  ResourceUpdatedNotificationSchema,
  type SubscribeRequest,
  SubscribeRequestParamsSchema,
  SubscribeRequestSchema,
  type TextResourceContents,
  TextResourceContentsSchema,
  type UnsubscribeRequest,
  UnsubscribeRequestParamsSchema,
  UnsubscribeRequestSchema,
} from "../2025-06-18/resources.js";

/** A resource: 2025-06-18's plus `icons`. */
export const ResourceSchema = PreviousResourceSchema.extend({ icons: IconsSchema.optional() });
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

/** A resource template: 2025-06-18's plus `icons`. */
export const ResourceTemplateSchema = PreviousResourceTemplateSchema.extend({
  icons: IconsSchema.optional(),
});
/** A resource template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** Result of `resources/list`. */
export const ListResourcesResultSchema = PreviousListResourcesResultSchema.extend({
  resources: z.array(ResourceSchema),
});
/** Result of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** Result of `resources/templates/list`. */
export const ListResourceTemplatesResultSchema = PreviousListResourceTemplatesResultSchema.extend({
  resourceTemplates: z.array(ResourceTemplateSchema),
});
/** Result of `resources/templates/list`. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;
