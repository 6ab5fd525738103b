import { z } from "zod";
import { defineNotificationSchema } from "../shared/define.js";
import { LoggingLevelSchema } from "../shared/primitives.js";
import { NotificationParamsSchema } from "./base.js";

/*
 * Revision 2026-07-28: logging is deprecated; `logging/setLevel` is removed. A request opts in with
 * `_meta["io.modelcontextprotocol/logLevel"]`; without it the server sends no log messages.
 */

/** Params of `notifications/message`. */
export const LoggingMessageNotificationParamsSchema = NotificationParamsSchema.extend({
  level: LoggingLevelSchema,
  logger: z.string().optional(),
  data: z.unknown(),
});
/** Params of `notifications/message`. */
export type LoggingMessageNotificationParams = z.infer<
  typeof LoggingMessageNotificationParamsSchema
>;

/** `notifications/message`. */
export const LoggingMessageNotificationSchema = defineNotificationSchema(
  "notifications/message",
  LoggingMessageNotificationParamsSchema,
);
/** `notifications/message`. */
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;
