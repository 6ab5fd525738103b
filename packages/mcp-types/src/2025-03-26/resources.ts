import { z } from "zod";
import {
  ListResourcesResultSchema as PreviousListResourcesResultSchema,
  ResourceSchema as PreviousResourceSchema,
} from "../2024-11-05/resources.js";
import type { SchemaType } from "../shared/define.js";

export {
  type ListResourcesRequest,
  ListResourcesRequestParamsSchema,
  ListResourcesRequestSchema,
  type ListResourceTemplatesRequest,
  ListResourceTemplatesRequestParamsSchema,
  ListResourceTemplatesRequestSchema,
  type ListResourceTemplatesResult,
  ListResourceTemplatesResultSchema,
  type ReadResourceRequest,
  ReadResourceRequestParamsSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  ReadResourceResultSchema,
  type ResourceListChangedNotification,
  ResourceListChangedNotificationSchema,
  type ResourceRequestParams,
  ResourceRequestParamsSchema,
  type ResourceTemplate,
  ResourceTemplateSchema,
  type ResourceUpdatedNotification,
  type ResourceUpdatedNotificationParams,
  ResourceUpdatedNotificationParamsSchema,
  ResourceUpdatedNotificationSchema,
  type SubscribeRequest,
  SubscribeRequestParamsSchema,
  SubscribeRequestSchema,
  type UnsubscribeRequest,
  UnsubscribeRequestParamsSchema,
  UnsubscribeRequestSchema,
} from "../2024-11-05/resources.js";

const resourceSchema = PreviousResourceSchema.extend({ size: z.number().optional() });
/** The zod type of {@link ResourceSchema}, named so that declarations refer to it. */
export interface ResourceSchemaType extends SchemaType<typeof resourceSchema> {}
/** A resource: 2024-11-05's plus `size` (raw bytes, if known). */
export const ResourceSchema: ResourceSchemaType = resourceSchema;
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

const listResourcesResultSchema = PreviousListResourcesResultSchema.extend({
  resources: z.array(ResourceSchema),
});
/** The zod type of {@link ListResourcesResultSchema}, named so that declarations refer to it. */
export interface ListResourcesResultSchemaType
  extends SchemaType<typeof listResourcesResultSchema> {}
/** Result of `resources/list`. */
export const ListResourcesResultSchema: ListResourcesResultSchemaType = listResourcesResultSchema;
/** Result of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;
