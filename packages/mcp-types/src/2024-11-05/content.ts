import { z } from "zod";
import type { SchemaType } from "../shared/define.js";
import { RoleSchema } from "../shared/primitives.js";

/** Annotations a client may use to decide how to use or show an object ("Annotated" in 2024-11-05). */
export const AnnotationsSchema = z.looseObject({
  audience: z.array(RoleSchema).optional(),
  priority: z.number().min(0).max(1).optional(),
});
/** Annotations for the client. */
export type Annotations = z.infer<typeof AnnotationsSchema>;

/** Text provided to or from an LLM. */
export const TextContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
});
/** Text provided to or from an LLM. */
export type TextContent = z.infer<typeof TextContentSchema>;

/** A base64-encoded image. */
export const ImageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
});
/** A base64-encoded image. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** The fields common to the contents of a resource. */
export const ResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
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

const embeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: ResourceContentsUnionSchema,
  annotations: AnnotationsSchema.optional(),
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
  EmbeddedResourceSchema,
]);
/** The zod type of {@link ContentBlockSchema}, named so that declarations refer to it. */
export interface ContentBlockSchemaType extends SchemaType<typeof contentBlockSchema> {}
/** Content of a tool result or prompt message in 2024-11-05: text, image or embedded resource. */
export const ContentBlockSchema: ContentBlockSchemaType = contentBlockSchema;
/** A content block. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
