import { z } from "zod";
import { ResourceContentsSchema as PreviousResourceContentsSchema } from "../2024-11-05/content.js";
import {
  ListResourcesResultSchema as PreviousListResourcesResultSchema,
  ListResourceTemplatesResultSchema as PreviousListResourceTemplatesResultSchema,
  ReadResourceResultSchema as PreviousReadResourceResultSchema,
  ResourceSchema as PreviousResourceSchema,
  ResourceTemplateSchema as PreviousResourceTemplateSchema,
} from "../2025-03-26/resources.js";
import type { SchemaType } from "../shared/define.js";
import { MetaSchema } from "../shared/primitives.js";
import { AnnotationsSchema } from "./base.js";

export {
  type ListResourcesRequest,
  ListResourcesRequestParamsSchema,
  ListResourcesRequestSchema,
  type ListResourceTemplatesRequest,
  ListResourceTemplatesRequestParamsSchema,
  ListResourceTemplatesRequestSchema,
  type ReadResourceRequest,
  ReadResourceRequestParamsSchema,
  ReadResourceRequestSchema,
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
  type UnsubscribeRequest,
  UnsubscribeRequestParamsSchema,
  UnsubscribeRequestSchema,
} from "../2025-03-26/resources.js";

const resourceSchema = PreviousResourceSchema.extend({
  title: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link ResourceSchema}, named so that declarations refer to it. */
export interface ResourceSchemaType extends SchemaType<typeof resourceSchema> {}
/** A resource: 2025-03-26's plus `title` and `_meta`. */
export const ResourceSchema: ResourceSchemaType = resourceSchema;
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

const resourceTemplateSchema = PreviousResourceTemplateSchema.extend({
  title: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link ResourceTemplateSchema}, named so that declarations refer to it. */
export interface ResourceTemplateSchemaType extends SchemaType<typeof resourceTemplateSchema> {}
/** A resource template: 2025-03-26's plus `title` and `_meta`. */
export const ResourceTemplateSchema: ResourceTemplateSchemaType = resourceTemplateSchema;
/** A resource template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** The fields common to the contents of a resource (plus `_meta` since 2025-06-18). */
export const ResourceContentsSchema = PreviousResourceContentsSchema.extend({
  _meta: MetaSchema.optional(),
});
/** The fields common to the contents of a resource. */
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** Contents of a resource that is text. */
export const TextResourceContentsSchema = ResourceContentsSchema.extend({ text: z.string() });
/** Contents of a resource that is text. */
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Contents of a binary resource, base64-encoded. */
export const BlobResourceContentsSchema = ResourceContentsSchema.extend({ blob: z.string() });
/** Contents of a binary resource. */
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** Text or blob contents. */
export const ResourceContentsUnionSchema = z.union([
  TextResourceContentsSchema,
  BlobResourceContentsSchema,
]);

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

const readResourceResultSchema = PreviousReadResourceResultSchema.extend({
  contents: z.array(ResourceContentsUnionSchema),
});
/** The zod type of {@link ReadResourceResultSchema}, named so that declarations refer to it. */
export interface ReadResourceResultSchemaType extends SchemaType<typeof readResourceResultSchema> {}
/** Result of `resources/read`. */
export const ReadResourceResultSchema: ReadResourceResultSchemaType = readResourceResultSchema;
/** Result of `resources/read`. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;
