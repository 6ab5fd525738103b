/* Revision 2025-06-18: unchanged from 2025-03-26. */
export {
  ProgressNotificationParamsSchema,
  ProgressNotificationSchema,
  type ProgressNotificationParams,
  type ProgressNotification,
  CancelledNotificationParamsSchema,
  CancelledNotificationSchema,
  type CancelledNotificationParams,
  type CancelledNotification,
} from "../2025-03-26/notifications.js";
