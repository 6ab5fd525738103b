import { z } from "zod";
import { ResourceContentsSchema as PreviousResourceContentsSchema } from "../2024-11-05/content.js";
import {
  ListResourcesResultSchema as PreviousListResourcesResultSchema,
  ListResourceTemplatesResultSchema as PreviousListResourceTemplatesResultSchema,
  ReadResourceResultSchema as PreviousReadResourceResultSchema,
  ResourceSchema as PreviousResourceSchema,
  ResourceTemplateSchema as PreviousResourceTemplateSchema,
} from "../2025-03-26/resources.js";
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

/** A resource: 2025-03-26's plus `title` and `_meta`. */
export const ResourceSchema = PreviousResourceSchema.extend({
  title: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

/** A resource template: 2025-03-26's plus `title` and `_meta`. */
export const ResourceTemplateSchema = PreviousResourceTemplateSchema.extend({
  title: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
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

/** Result of `resources/read`. */
export const ReadResourceResultSchema = PreviousReadResourceResultSchema.extend({
  contents: z.array(ResourceContentsUnionSchema),
});
/** Result of `resources/read`. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;
