/* Revision 2025-11-25: unchanged from 2025-06-18. */
export {
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  type SetLevelRequestParams,
  type SetLevelRequest,
  type LoggingMessageNotificationParams,
  type LoggingMessageNotification,
} from "../2025-06-18/logging.js";
