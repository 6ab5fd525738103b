import { z } from "zod";
import type { SchemaType } from "../shared/define.js";
import { MetaSchema } from "../shared/primitives.js";
import { AnnotationsSchema } from "./base.js";
import { ResourceContentsUnionSchema, ResourceSchema } from "./resources.js";

/* Revision 2025-06-18: every content block may carry `_meta`; `resource_link` is new. */

const textContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link TextContentSchema}, named so that declarations refer to it. */
export interface TextContentSchemaType extends SchemaType<typeof textContentSchema> {}
/** Text provided to or from an LLM. */
export const TextContentSchema: TextContentSchemaType = textContentSchema;
/** Text provided to or from an LLM. */
export type TextContent = z.infer<typeof TextContentSchema>;

const imageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link ImageContentSchema}, named so that declarations refer to it. */
export interface ImageContentSchemaType extends SchemaType<typeof imageContentSchema> {}
/** A base64-encoded image. */
export const ImageContentSchema: ImageContentSchemaType = imageContentSchema;
/** A base64-encoded image. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

const audioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link AudioContentSchema}, named so that declarations refer to it. */
export interface AudioContentSchemaType extends SchemaType<typeof audioContentSchema> {}
/** Base64-encoded audio. */
export const AudioContentSchema: AudioContentSchemaType = audioContentSchema;
/** Base64-encoded audio. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

const resourceLinkSchema = ResourceSchema.extend({ type: z.literal("resource_link") });
/** The zod type of {@link ResourceLinkSchema}, named so that declarations refer to it. */
export interface ResourceLinkSchemaType extends SchemaType<typeof resourceLinkSchema> {}
/** A link to a resource the server can read (new in 2025-06-18). */
export const ResourceLinkSchema: ResourceLinkSchemaType = resourceLinkSchema;
/** A link to a resource. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

const embeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: ResourceContentsUnionSchema,
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link EmbeddedResourceSchema}, named so that declarations refer to it. */
export interface EmbeddedResourceSchemaType extends SchemaType<typeof embeddedResourceSchema> {}
/** A resource embedded into a prompt or tool result. */
export const EmbeddedResourceSchema: EmbeddedResourceSchemaType = embeddedResourceSchema;
/** A resource embedded into a prompt or tool result. */
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

const contentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
/** The zod type of {@link ContentBlockSchema}, named so that declarations refer to it. */
export interface ContentBlockSchemaType extends SchemaType<typeof contentBlockSchema> {}
/** A content block: text, image, audio, resource link or embedded resource. */
export const ContentBlockSchema: ContentBlockSchemaType = contentBlockSchema;
/** A content block. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
