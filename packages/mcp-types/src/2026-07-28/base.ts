import { z } from "zod";
import { ImplementationSchema } from "../2025-11-25/base.js";
import {
  CursorSchema,
  LoggingLevelSchema,
  ProgressTokenSchema,
  RequestIdSchema,
} from "../shared/primitives.js";
import { ClientCapabilitiesSchema } from "./capabilities.js";

export { type Annotations, AnnotationsSchema } from "../2025-06-18/base.js";
export {
  type Icon,
  IconSchema,
  IconsSchema,
  type Implementation,
  ImplementationSchema,
} from "../2025-11-25/base.js";

/*
 * Revision 2026-07-28 (modern era): no handshake. Every request carries the protocol version and
 * the client's capabilities in `_meta`, and every result says its `resultType`.
 */

/** `_meta` of a modern request: version and capabilities are required (missing ⇒ -32602). */
export const RequestMetaSchema = z.looseObject({
  progressToken: ProgressTokenSchema.optional(),
  "io.modelcontextprotocol/protocolVersion": z.string(),
  "io.modelcontextprotocol/clientInfo": ImplementationSchema.optional(),
  "io.modelcontextprotocol/clientCapabilities": ClientCapabilitiesSchema,
  "io.modelcontextprotocol/logLevel": LoggingLevelSchema.optional(),
});
/** `_meta` of a modern request. */
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

/** Params every modern request carries: `_meta` is required. */
export const RequestParamsSchema = z.looseObject({ _meta: RequestMetaSchema });
/** Params every modern request carries. */
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/** `_meta` of a notification: the subscription id on a `subscriptions/listen` stream. */
export const NotificationMetaSchema = z.looseObject({
  "io.modelcontextprotocol/subscriptionId": RequestIdSchema.optional(),
});

/** Params every notification may carry. */
export const NotificationParamsSchema = z.looseObject({
  _meta: NotificationMetaSchema.optional(),
});
/** Params every notification may carry. */
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;

/** Params of notifications whose params are optional (list_changed). */
export const OptionalNotificationParamsSchema = NotificationParamsSchema.optional();

/** `_meta` of a result: the server SHOULD name itself. */
export const ResultMetaSchema = z.looseObject({
  "io.modelcontextprotocol/serverInfo": ImplementationSchema.optional(),
});

/**
 * Fields every modern result carries. `resultType` is required of a 2026-07-28 server; a client
 * treats its absence (an older server) as `"complete"`, which the legacy schemas model.
 */
export const ResultSchema = z.looseObject({
  _meta: ResultMetaSchema.optional(),
  resultType: z.string(),
});
/** Fields every modern result carries. */
export type Result = z.infer<typeof ResultSchema>;

/** A result that carries no data. */
export const EmptyResultSchema = ResultSchema;
/** A result that carries no data. */
export type EmptyResult = z.infer<typeof EmptyResultSchema>;

/** Caching hints required on list results, `resources/read` and `server/discover`. */
export const CacheableResultSchema = ResultSchema.extend({
  ttlMs: z.number().min(0),
  cacheScope: z.enum(["public", "private"]),
});
/** Caching hints. */
export type CacheableResult = z.infer<typeof CacheableResultSchema>;

/** Params of a paginated list request. */
export const PaginatedRequestParamsSchema = RequestParamsSchema.extend({
  cursor: CursorSchema.optional(),
});
/** Params of a paginated list request. */
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** Fields of a paginated, cacheable list result (each page has its own `ttlMs`). */
export const PaginatedResultSchema = CacheableResultSchema.extend({
  nextCursor: CursorSchema.optional(),
});
/** Fields of a paginated list result. */
export type PaginatedResult = z.infer<typeof PaginatedResultSchema>;
