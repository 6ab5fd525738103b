import { z } from "zod";
import {
  ListRootsResultSchema as PreviousListRootsResultSchema,
  RootSchema as PreviousRootSchema,
} from "../2024-11-05/roots.js";
import { MetaSchema } from "../shared/primitives.js";

export {
  type ListRootsRequest,
  ListRootsRequestParamsSchema,
  ListRootsRequestSchema,
  type RootsListChangedNotification,
  RootsListChangedNotificationSchema,
} from "../2025-03-26/roots.js";

/** A root: plus `_meta`. */
export const RootSchema = PreviousRootSchema.extend({ _meta: MetaSchema.optional() });
/** A root directory or file. */
export type Root = z.infer<typeof RootSchema>;

/** Result of `roots/list`. */
export const ListRootsResultSchema = PreviousListRootsResultSchema.extend({
  roots: z.array(RootSchema),
});
/** Result of `roots/list`. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;
