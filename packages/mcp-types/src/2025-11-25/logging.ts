/* Revision 2025-11-25: unchanged from 2025-06-18. */
export {
  type LoggingMessageNotification,
  type LoggingMessageNotificationParams,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  type SetLevelRequest,
  type SetLevelRequestParams,
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
} from "../2025-06-18/logging.js";
