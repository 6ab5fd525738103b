/* Revision 2025-03-26: unchanged from 2024-11-05. */
export {
  type LoggingMessageNotification,
  type LoggingMessageNotificationParams,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  type SetLevelRequest,
  type SetLevelRequestParams,
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
} from "../2024-11-05/logging.js";
