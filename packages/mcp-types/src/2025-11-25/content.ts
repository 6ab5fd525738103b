import { z } from "zod";
import {
  AudioContentSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  TextContentSchema,
} from "../2025-06-18/content.js";
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

/** A link to a resource (a 2025-11-25 resource, so it may carry `icons`). */
export const ResourceLinkSchema = ResourceSchema.extend({ type: z.literal("resource_link") });
/** A link to a resource. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

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

/** The result of a tool use, given back to the model (new in 2025-11-25). */
export const ToolResultContentSchema = z.looseObject({
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
  _meta: MetaSchema.optional(),
});
/** The result of a tool use. */
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;
