import { z } from "zod";
import { CursorSchema, EmptyObjectSchema, ProgressTokenSchema } from "../shared/primitives.js";

/** `_meta` of a request: `progressToken` is reserved; any other key passes through. */
export const RequestMetaSchema = z.looseObject({
  progressToken: ProgressTokenSchema.optional(),
});
/** `_meta` of a request. */
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

/** Params every request may carry. */
export const RequestParamsSchema = z.looseObject({ _meta: RequestMetaSchema.optional() });
/** Params every request may carry. */
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/** Params every notification may carry. */
export const NotificationParamsSchema = z.looseObject({ _meta: EmptyObjectSchema.optional() });
/** Params every notification may carry. */
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;

/** Fields every result may carry. */
export const ResultSchema = z.looseObject({ _meta: EmptyObjectSchema.optional() });
/** Fields every result may carry. */
export type Result = z.infer<typeof ResultSchema>;

/** A result that carries no data (`ping`, `logging/setLevel`, subscribe, ...). */
export const EmptyResultSchema = ResultSchema;
/** A result that carries no data. */
export type EmptyResult = z.infer<typeof EmptyResultSchema>;

/** Params of a paginated list request. */
export const PaginatedRequestParamsSchema = RequestParamsSchema.extend({
  cursor: CursorSchema.optional(),
});
/** Params of a paginated list request. */
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** Fields of a paginated list result. */
export const PaginatedResultSchema = ResultSchema.extend({ nextCursor: CursorSchema.optional() });
/** Fields of a paginated list result. */
export type PaginatedResult = z.infer<typeof PaginatedResultSchema>;

/** Name and version of an MCP implementation (client or server). */
export const ImplementationSchema = z.looseObject({ name: z.string(), version: z.string() });
/** Name and version of an MCP implementation. */
export type Implementation = z.infer<typeof ImplementationSchema>;

/** Params of notifications whose params are optional (list_changed, initialized). */
export const OptionalNotificationParamsSchema = NotificationParamsSchema.optional();
