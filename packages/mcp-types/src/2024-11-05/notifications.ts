import { z } from "zod";
import { defineNotificationSchema } from "../shared/define.js";
import { ProgressTokenSchema, RequestIdSchema } from "../shared/primitives.js";
import { NotificationParamsSchema } from "./base.js";

/** Params of `notifications/cancelled`. */
export const CancelledNotificationParamsSchema = NotificationParamsSchema.extend({
  requestId: RequestIdSchema,
  reason: z.string().optional(),
});
/** Params of `notifications/cancelled`. */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** `notifications/cancelled`: either side cancels a request it sent earlier. */
export const CancelledNotificationSchema = defineNotificationSchema(
  "notifications/cancelled",
  CancelledNotificationParamsSchema,
);
/** `notifications/cancelled`. */
export type CancelledNotification = z.infer<typeof CancelledNotificationSchema>;

/** Params of `notifications/progress`. */
export const ProgressNotificationParamsSchema = NotificationParamsSchema.extend({
  progressToken: ProgressTokenSchema,
  progress: z.number(),
  total: z.number().optional(),
});
/** Params of `notifications/progress`. */
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/progress`: progress of a request that carried `_meta.progressToken`. */
export const ProgressNotificationSchema = defineNotificationSchema(
  "notifications/progress",
  ProgressNotificationParamsSchema,
);
/** `notifications/progress`. */
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;
