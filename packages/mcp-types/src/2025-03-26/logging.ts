/* Revision 2025-03-26: unchanged from 2024-11-05. */
export {
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  type SetLevelRequestParams,
  type SetLevelRequest,
  type LoggingMessageNotificationParams,
  type LoggingMessageNotification,
} from "../2024-11-05/logging.js";
