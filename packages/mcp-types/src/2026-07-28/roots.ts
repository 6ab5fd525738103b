import type { z } from "zod";
import { ListRootsRequestParamsSchema } from "../2024-11-05/roots.js";
import { defineRequestSchema } from "../shared/define.js";

export {
  type ListRootsResult,
  ListRootsResultSchema,
  type Root,
  RootSchema,
} from "../2025-06-18/roots.js";

/*
 * Revision 2026-07-28: roots are deprecated; `roots/list` is only an input request and
 * `notifications/roots/list_changed` is removed.
 */

/** A `roots/list` input request. */
export const ListRootsRequestSchema = defineRequestSchema(
  "roots/list",
  ListRootsRequestParamsSchema,
);
/** A `roots/list` input request. */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;
