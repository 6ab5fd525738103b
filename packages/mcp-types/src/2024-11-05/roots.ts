import { z } from "zod";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
import { NotificationParamsSchema, RequestParamsSchema, ResultSchema } from "./base.js";

/** A root directory or file the server may operate on; the URI MUST start with `file://`. */
export const RootSchema = z.looseObject({
  uri: z.string().startsWith("file://"),
  name: z.string().optional(),
});
/** A root directory or file. */
export type Root = z.infer<typeof RootSchema>;

/** `roots/list`, a server-to-client request. */
export const ListRootsRequestSchema = defineRequestSchema(
  "roots/list",
  RequestParamsSchema.optional(),
);
/** `roots/list`. */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/** Result of `roots/list`. */
export const ListRootsResultSchema = ResultSchema.extend({ roots: z.array(RootSchema) });
/** Result of `roots/list`. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

/** `notifications/roots/list_changed`, sent by the client. */
export const RootsListChangedNotificationSchema = defineNotificationSchema(
  "notifications/roots/list_changed",
  NotificationParamsSchema.optional(),
);
/** `notifications/roots/list_changed`. */
export type RootsListChangedNotification = z.infer<typeof RootsListChangedNotificationSchema>;

/** Params of `roots/list` (optional). */
export const ListRootsRequestParamsSchema = RequestParamsSchema.optional();
