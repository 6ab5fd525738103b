import { z } from "zod";
import {
  AnnotationsSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  TextContentSchema,
} from "../2024-11-05/content.js";
import type { SchemaType } from "../shared/define.js";

export {
  type Annotations,
  AnnotationsSchema,
  type BlobResourceContents,
  BlobResourceContentsSchema,
  type EmbeddedResource,
  EmbeddedResourceSchema,
  type ImageContent,
  ImageContentSchema,
  type ResourceContents,
  ResourceContentsSchema,
  ResourceContentsUnionSchema,
  type TextContent,
  TextContentSchema,
  type TextResourceContents,
  TextResourceContentsSchema,
} from "../2024-11-05/content.js";

/** Base64-encoded audio (new in 2025-03-26). */
export const AudioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
});
/** Base64-encoded audio. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

const contentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  EmbeddedResourceSchema,
]);
/** The zod type of {@link ContentBlockSchema}, named so that declarations refer to it. */
export interface ContentBlockSchemaType extends SchemaType<typeof contentBlockSchema> {}
/** Content of a tool result or prompt message in 2025-03-26: 2024-11-05's plus audio. */
export const ContentBlockSchema: ContentBlockSchemaType = contentBlockSchema;
/** A content block. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
