import { z } from "zod";
import { MetaSchema } from "../shared/primitives.js";
import { AnnotationsSchema } from "./base.js";
import { ResourceContentsUnionSchema, ResourceSchema } from "./resources.js";

/* Revision 2025-06-18: every content block may carry `_meta`; `resource_link` is new. */

/** Text provided to or from an LLM. */
export const TextContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** Text provided to or from an LLM. */
export type TextContent = z.infer<typeof TextContentSchema>;

/** A base64-encoded image. */
export const ImageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** A base64-encoded image. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Base64-encoded audio. */
export const AudioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** Base64-encoded audio. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** A link to a resource the server can read (new in 2025-06-18). */
export const ResourceLinkSchema = ResourceSchema.extend({ type: z.literal("resource_link") });
/** A link to a resource. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** A resource embedded into a prompt or tool result. */
export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: ResourceContentsUnionSchema,
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** A resource embedded into a prompt or tool result. */
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/** A content block: text, image, audio, resource link or embedded resource. */
export const ContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
/** A content block. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
