import { z } from "zod";
import { ToolResultContentSchema as PreviousToolResultContentSchema } from "../2025-11-25/content.js";

export {
  type AudioContent,
  AudioContentSchema,
  type ContentBlock,
  ContentBlockSchema,
  type EmbeddedResource,
  EmbeddedResourceSchema,
  type ImageContent,
  ImageContentSchema,
  type ResourceLink,
  ResourceLinkSchema,
  type TextContent,
  TextContentSchema,
  type ToolUseContent,
  ToolUseContentSchema,
} from "../2025-11-25/content.js";

/** The result of a tool use: `structuredContent` may be any JSON value in 2026-07-28. */
export const ToolResultContentSchema = PreviousToolResultContentSchema.extend({
  structuredContent: z.unknown().optional(),
});
/** The result of a tool use. */
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;
