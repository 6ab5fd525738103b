import { z } from "zod";
import { ToolResultContentSchema as PreviousToolResultContentSchema } from "../2025-11-25/content.js";
import type { SchemaType } from "../shared/define.js";

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

const toolResultContentSchema = PreviousToolResultContentSchema.extend({
  structuredContent: z.unknown().optional(),
});
/** The zod type of {@link ToolResultContentSchema}, named so that declarations refer to it. */
export interface ToolResultContentSchemaType extends SchemaType<typeof toolResultContentSchema> {}
/** The result of a tool use: `structuredContent` may be any JSON value in 2026-07-28. */
export const ToolResultContentSchema: ToolResultContentSchemaType = toolResultContentSchema;
/** The result of a tool use. */
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;
