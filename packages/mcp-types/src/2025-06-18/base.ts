import { z } from "zod";
import { ImplementationSchema as PreviousImplementationSchema } from "../2024-11-05/base.js";
import { RoleSchema } from "../shared/primitives.js";

/* Revision 2025-06-18: batches are removed again; `title` and `_meta` appear on many types. */
export {
  type EmptyResult,
  EmptyResultSchema,
  type NotificationParams,
  NotificationParamsSchema,
  OptionalNotificationParamsSchema,
  type PaginatedRequestParams,
  PaginatedRequestParamsSchema,
  type PaginatedResult,
  PaginatedResultSchema,
  type RequestMeta,
  RequestMetaSchema,
  type RequestParams,
  RequestParamsSchema,
  type Result,
  ResultSchema,
} from "../2024-11-05/base.js";

/** Name and optional display title of an implementation (`title` new in 2025-06-18). */
export const ImplementationSchema = PreviousImplementationSchema.extend({
  title: z.string().optional(),
});
/** Name, title and version of an MCP implementation. */
export type Implementation = z.infer<typeof ImplementationSchema>;

/** Annotations for the client: 2025-03-26's plus `lastModified` (ISO 8601). */
export const AnnotationsSchema = z.looseObject({
  audience: z.array(RoleSchema).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});
/** Annotations for the client. */
export type Annotations = z.infer<typeof AnnotationsSchema>;
