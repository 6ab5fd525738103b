import { z } from "zod";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
import { LoggingLevelSchema } from "../shared/primitives.js";
import { NotificationParamsSchema, RequestParamsSchema } from "./base.js";

/** Params of `logging/setLevel`; an unknown level is refused (-32602). */
export const SetLevelRequestParamsSchema = RequestParamsSchema.extend({
  level: LoggingLevelSchema,
});
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

/** `notifications/message`: a log message from the server. */
export const LoggingMessageNotificationSchema = defineNotificationSchema(
  "notifications/message",
  LoggingMessageNotificationParamsSchema,
);
/** `notifications/message`. */
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;
