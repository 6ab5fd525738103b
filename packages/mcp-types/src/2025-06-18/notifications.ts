/* Revision 2025-06-18: unchanged from 2025-03-26. */
export {
  type CancelledNotification,
  type CancelledNotificationParams,
  CancelledNotificationParamsSchema,
  CancelledNotificationSchema,
  type ProgressNotification,
  type ProgressNotificationParams,
  ProgressNotificationParamsSchema,
  ProgressNotificationSchema,
} from "../2025-03-26/notifications.js";
