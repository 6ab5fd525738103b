import { z } from "zod";
import { defineNotificationSchema, type SchemaType } from "../shared/define.js";
import { LoggingLevelSchema } from "../shared/primitives.js";
import { NotificationParamsSchema } from "./base.js";

/*
 * Revision 2026-07-28: logging is deprecated; `logging/setLevel` is removed. A request opts in with
 * `_meta["io.modelcontextprotocol/logLevel"]`; without it the server sends no log messages.
 */

const loggingMessageNotificationParamsSchema = NotificationParamsSchema.extend({
  level: LoggingLevelSchema,
  logger: z.string().optional(),
  data: z.unknown(),
});
/** The zod type of {@link LoggingMessageNotificationParamsSchema}, named so that declarations refer to it. */
export interface LoggingMessageNotificationParamsSchemaType
  extends SchemaType<typeof loggingMessageNotificationParamsSchema> {}
/** Params of `notifications/message`. */
export const LoggingMessageNotificationParamsSchema: LoggingMessageNotificationParamsSchemaType =
  loggingMessageNotificationParamsSchema;
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
/** `notifications/message`. */
export const LoggingMessageNotificationSchema: LoggingMessageNotificationSchemaType =
  loggingMessageNotificationSchema;
/** `notifications/message`. */
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;
