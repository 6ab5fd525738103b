import { z } from "zod";
import { ProgressNotificationParamsSchema as PreviousProgressNotificationParamsSchema } from "../2024-11-05/notifications.js";
import { defineNotificationSchema } from "../shared/define.js";

export {
  type CancelledNotification,
  type CancelledNotificationParams,
  CancelledNotificationParamsSchema,
  CancelledNotificationSchema,
} from "../2024-11-05/notifications.js";

/** Params of `notifications/progress`: 2024-11-05's plus `message`. */
export const ProgressNotificationParamsSchema = PreviousProgressNotificationParamsSchema.extend({
  message: z.string().optional(),
});
/** Params of `notifications/progress`. */
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/progress`. */
export const ProgressNotificationSchema = defineNotificationSchema(
  "notifications/progress",
  ProgressNotificationParamsSchema,
);
/** `notifications/progress`. */
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;
