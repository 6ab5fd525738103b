/* Revision 2025-06-18: unchanged from 2025-03-26. */
export {
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  type SetLevelRequestParams,
  type SetLevelRequest,
  type LoggingMessageNotificationParams,
  type LoggingMessageNotification,
} from "../2025-03-26/logging.js";
