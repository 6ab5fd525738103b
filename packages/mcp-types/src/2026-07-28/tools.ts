import { z } from "zod";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
import {
  OptionalNotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  ResultSchema,
} from "./base.js";
import { ContentBlockSchema } from "./content.js";
import { InputResponseRequestParamsSchema } from "./input-required.js";
import { ToolSchema } from "./tool.js";

export { type ToolAnnotations, ToolAnnotationsSchema } from "../2025-03-26/tools.js";

/* Revision 2026-07-28: schemas may use any JSON Schema 2020-12 keyword; `execution` left with
 * tasks; `structuredContent` may be any JSON value; `tools/call` may answer input_required. */

/** Params of `tools/list`. */
export const ListToolsRequestParamsSchema = PaginatedRequestParamsSchema;
/** `tools/list`. */
export const ListToolsRequestSchema = defineRequestSchema(
  "tools/list",
  ListToolsRequestParamsSchema,
);
/** `tools/list`. */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** Result of `tools/list` (cacheable; the order SHOULD be deterministic). */
export const ListToolsResultSchema = PaginatedResultSchema.extend({ tools: z.array(ToolSchema) });
/** Result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Params of `tools/call`. */
export const CallToolRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call`. */
export const CallToolRequestSchema = defineRequestSchema("tools/call", CallToolRequestParamsSchema);
/** `tools/call`. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/** Complete result of `tools/call`. */
export const CallToolResultSchema = ResultSchema.extend({
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
/** Result of `tools/call`. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** `notifications/tools/list_changed` (only on a listen stream that asked for it). */
export const ToolListChangedNotificationSchema = defineNotificationSchema(
  "notifications/tools/list_changed",
  OptionalNotificationParamsSchema,
);
/** `notifications/tools/list_changed`. */
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;
