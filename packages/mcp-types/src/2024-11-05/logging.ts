import { z } from "zod";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import { LoggingLevelSchema } from "../shared/primitives.js";
import { NotificationParamsSchema, RequestParamsSchema } from "./base.js";

const setLevelRequestParamsSchema = RequestParamsSchema.extend({
  level: LoggingLevelSchema,
});
/** The zod type of {@link SetLevelRequestParamsSchema}, named so that declarations refer to it. */
export interface SetLevelRequestParamsSchemaType
  extends SchemaType<typeof setLevelRequestParamsSchema> {}
/** Params of `logging/setLevel`; an unknown level is refused (-32602). */
export const SetLevelRequestParamsSchema: SetLevelRequestParamsSchemaType =
  setLevelRequestParamsSchema;
/** Params of `logging/setLevel`. */
export type SetLevelRequestParams = z.infer<typeof SetLevelRequestParamsSchema>;

/** `logging/setLevel` (legacy only). */
export const SetLevelRequestSchema = defineRequestSchema(
  "logging/setLevel",
  SetLevelRequestParamsSchema,
);
/** `logging/setLevel`. */
export type SetLevelRequest = z.infer<typeof SetLevelRequestSchema>;

/** Params of `notifications/message`; `data` is any JSON value. */
export const LoggingMessageNotificationParamsSchema = NotificationParamsSchema.extend({
  level: LoggingLevelSchema,
  logger: z.string().optional(),
  data: z.unknown(),
});
/** Params of `notifications/message`. */
export type LoggingMessageNotificationParams = z.infer<
  typeof LoggingMessageNotificationParamsSchema
>;

const loggingMessageNotificationSchema = defineNotificationSchema(
  "notifications/message",
  LoggingMessageNotificationParamsSchema,
);
/** The zod type of {@link LoggingMessageNotificationSchema}, named so that declarations refer to it. */
export interface LoggingMessageNotificationSchemaType
  extends SchemaType<typeof loggingMessageNotificationSchema> {}
/** `notifications/message`: a log message from the server. */
export const LoggingMessageNotificationSchema: LoggingMessageNotificationSchemaType =
  loggingMessageNotificationSchema;
/** `notifications/message`. */
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;
