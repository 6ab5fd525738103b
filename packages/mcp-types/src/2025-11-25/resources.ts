import { z } from "zod";
import {
  ListResourcesResultSchema as PreviousListResourcesResultSchema,
  ListResourceTemplatesResultSchema as PreviousListResourceTemplatesResultSchema,
  ResourceSchema as PreviousResourceSchema,
  ResourceTemplateSchema as PreviousResourceTemplateSchema,
} from "../2025-06-18/resources.js";
import type { SchemaType } from "../shared/define.js";
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

const resourceSchema = PreviousResourceSchema.extend({ icons: IconsSchema.optional() });
/** The zod type of {@link ResourceSchema}, named so that declarations refer to it. */
export interface ResourceSchemaType extends SchemaType<typeof resourceSchema> {}
/** A resource: 2025-06-18's plus `icons`. */
export const ResourceSchema: ResourceSchemaType = resourceSchema;
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

const resourceTemplateSchema = PreviousResourceTemplateSchema.extend({
  icons: IconsSchema.optional(),
});
/** The zod type of {@link ResourceTemplateSchema}, named so that declarations refer to it. */
export interface ResourceTemplateSchemaType extends SchemaType<typeof resourceTemplateSchema> {}
/** A resource template: 2025-06-18's plus `icons`. */
export const ResourceTemplateSchema: ResourceTemplateSchemaType = resourceTemplateSchema;
/** A resource template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

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

const listResourceTemplatesResultSchema = PreviousListResourceTemplatesResultSchema.extend({
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
