import { z } from "zod";
import {
  AudioContentSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  TextContentSchema,
} from "../2025-06-18/content.js";
import type { SchemaType } from "../shared/define.js";
import { MetaSchema } from "../shared/primitives.js";
import { ResourceSchema } from "./resources.js";

export {
  type AudioContent,
  AudioContentSchema,
  type EmbeddedResource,
  EmbeddedResourceSchema,
  type ImageContent,
  ImageContentSchema,
  type TextContent,
  TextContentSchema,
} from "../2025-06-18/content.js";

const resourceLinkSchema = ResourceSchema.extend({ type: z.literal("resource_link") });
/** The zod type of {@link ResourceLinkSchema}, named so that declarations refer to it. */
export interface ResourceLinkSchemaType extends SchemaType<typeof resourceLinkSchema> {}
/** A link to a resource (a 2025-11-25 resource, so it may carry `icons`). */
export const ResourceLinkSchema: ResourceLinkSchemaType = resourceLinkSchema;
/** A link to a resource. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

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

/** A model's request to call a tool, in a sampling message (new in 2025-11-25). */
export const ToolUseContentSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  _meta: MetaSchema.optional(),
});
/** A model's request to call a tool. */
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

const toolResultContentSchema = z.looseObject({
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
  _meta: MetaSchema.optional(),
});
/** The zod type of {@link ToolResultContentSchema}, named so that declarations refer to it. */
export interface ToolResultContentSchemaType extends SchemaType<typeof toolResultContentSchema> {}
/** The result of a tool use, given back to the model (new in 2025-11-25). */
export const ToolResultContentSchema: ToolResultContentSchemaType = toolResultContentSchema;
/** The result of a tool use. */
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;
