import { z } from "zod";
import { ImplementationSchema } from "../2025-11-25/base.js";
import type { SchemaType } from "../shared/define.js";
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

const requestMetaSchema = z.looseObject({
  progressToken: ProgressTokenSchema.optional(),
  "io.modelcontextprotocol/protocolVersion": z.string(),
  "io.modelcontextprotocol/clientInfo": ImplementationSchema.optional(),
  "io.modelcontextprotocol/clientCapabilities": ClientCapabilitiesSchema,
  "io.modelcontextprotocol/logLevel": LoggingLevelSchema.optional(),
});
/** The zod type of {@link RequestMetaSchema}, named so that declarations refer to it. */
export interface RequestMetaSchemaType extends SchemaType<typeof requestMetaSchema> {}
/** `_meta` of a modern request: version and capabilities are required (missing ⇒ -32602). */
export const RequestMetaSchema: RequestMetaSchemaType = requestMetaSchema;
/** `_meta` of a modern request. */
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

const requestParamsSchema = z.looseObject({ _meta: RequestMetaSchema });
/** The zod type of {@link RequestParamsSchema}, named so that declarations refer to it. */
export interface RequestParamsSchemaType extends SchemaType<typeof requestParamsSchema> {}
/** Params every modern request carries: `_meta` is required. */
export const RequestParamsSchema: RequestParamsSchemaType = requestParamsSchema;
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

const resultMetaSchema = z.looseObject({
  "io.modelcontextprotocol/serverInfo": ImplementationSchema.optional(),
});
/** The zod type of {@link ResultMetaSchema}, named so that declarations refer to it. */
export interface ResultMetaSchemaType extends SchemaType<typeof resultMetaSchema> {}
/** `_meta` of a result: the server SHOULD name itself. */
export const ResultMetaSchema: ResultMetaSchemaType = resultMetaSchema;

const resultSchema = z.looseObject({
  _meta: ResultMetaSchema.optional(),
  resultType: z.string(),
});
/** The zod type of {@link ResultSchema}, named so that declarations refer to it. */
export interface ResultSchemaType extends SchemaType<typeof resultSchema> {}
/**
 * Fields every modern result carries. `resultType` is required of a 2026-07-28 server; a client
 * treats its absence (an older server) as `"complete"`, which the legacy schemas model.
 */
export const ResultSchema: ResultSchemaType = resultSchema;
/** Fields every modern result carries. */
export type Result = z.infer<typeof ResultSchema>;

const emptyResultSchema = ResultSchema;
/** The zod type of {@link EmptyResultSchema}, named so that declarations refer to it. */
export interface EmptyResultSchemaType extends SchemaType<typeof emptyResultSchema> {}
/** A result that carries no data. */
export const EmptyResultSchema: EmptyResultSchemaType = emptyResultSchema;
/** A result that carries no data. */
export type EmptyResult = z.infer<typeof EmptyResultSchema>;

const cacheableResultSchema = ResultSchema.extend({
  ttlMs: z.number().min(0),
  cacheScope: z.enum(["public", "private"]),
});
/** The zod type of {@link CacheableResultSchema}, named so that declarations refer to it. */
export interface CacheableResultSchemaType extends SchemaType<typeof cacheableResultSchema> {}
/** Caching hints required on list results, `resources/read` and `server/discover`. */
export const CacheableResultSchema: CacheableResultSchemaType = cacheableResultSchema;
/** Caching hints. */
export type CacheableResult = z.infer<typeof CacheableResultSchema>;

const paginatedRequestParamsSchema = RequestParamsSchema.extend({
  cursor: CursorSchema.optional(),
});
/** The zod type of {@link PaginatedRequestParamsSchema}, named so that declarations refer to it. */
export interface PaginatedRequestParamsSchemaType
  extends SchemaType<typeof paginatedRequestParamsSchema> {}
/** Params of a paginated list request. */
export const PaginatedRequestParamsSchema: PaginatedRequestParamsSchemaType =
  paginatedRequestParamsSchema;
/** Params of a paginated list request. */
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

const paginatedResultSchema = CacheableResultSchema.extend({
  nextCursor: CursorSchema.optional(),
});
/** The zod type of {@link PaginatedResultSchema}, named so that declarations refer to it. */
export interface PaginatedResultSchemaType extends SchemaType<typeof paginatedResultSchema> {}
/** Fields of a paginated, cacheable list result (each page has its own `ttlMs`). */
export const PaginatedResultSchema: PaginatedResultSchemaType = paginatedResultSchema;
/** Fields of a paginated list result. */
export type PaginatedResult = z.infer<typeof PaginatedResultSchema>;
