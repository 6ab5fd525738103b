import type { z } from "zod";
import { CancelledNotificationParamsSchema as PreviousCancelledNotificationParamsSchema } from "../2024-11-05/notifications.js";
import { defineNotificationSchema } from "../shared/define.js";
import { RequestIdSchema } from "../shared/primitives.js";

export {
  type ProgressNotification,
  type ProgressNotificationParams,
  ProgressNotificationParamsSchema,
  ProgressNotificationSchema,
} from "../2025-06-18/notifications.js";

/** Params of `notifications/cancelled`: `requestId` becomes optional (tasks use tasks/cancel). */
export const CancelledNotificationParamsSchema = PreviousCancelledNotificationParamsSchema.extend({
  requestId: RequestIdSchema.optional(),
});
/** Params of `notifications/cancelled`. */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** `notifications/cancelled`. */
export const CancelledNotificationSchema = defineNotificationSchema(
  "notifications/cancelled",
  CancelledNotificationParamsSchema,
);
/** `notifications/cancelled`. */
export type CancelledNotification = z.infer<typeof CancelledNotificationSchema>;
