import { z } from "zod";
import {
  ListResourcesResultSchema as PreviousListResourcesResultSchema,
  ResourceSchema as PreviousResourceSchema,
} from "../2024-11-05/resources.js";

export {
  ResourceTemplateSchema,
  ListResourcesRequestParamsSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestParamsSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ResourceRequestParamsSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  SubscribeRequestParamsSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestParamsSchema,
  UnsubscribeRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationParamsSchema,
  ResourceUpdatedNotificationSchema,
  type ResourceTemplate,
  type ListResourcesRequest,
  type ListResourceTemplatesRequest,
  type ListResourceTemplatesResult,
  type ResourceRequestParams,
  type ReadResourceRequest,
  type ReadResourceResult,
  type SubscribeRequest,
  type UnsubscribeRequest,
  type ResourceListChangedNotification,
  type ResourceUpdatedNotification,
} from "../2024-11-05/resources.js";

/** A resource: 2024-11-05's plus `size` (raw bytes, if known). */
export const ResourceSchema = PreviousResourceSchema.extend({ size: z.number().optional() });
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

/** Result of `resources/list`. */
export const ListResourcesResultSchema = PreviousListResourcesResultSchema.extend({
  resources: z.array(ResourceSchema),
});
/** Result of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;
