/* Revision 2025-06-18: unchanged from 2025-03-26. */
export {
  type LoggingMessageNotification,
  type LoggingMessageNotificationParams,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  type SetLevelRequest,
  type SetLevelRequestParams,
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
} from "../2025-03-26/logging.js";
