import { z } from "zod";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
import { ProgressTokenSchema, RequestIdSchema } from "../shared/primitives.js";
import {
  NotificationParamsSchema,
  RequestParamsSchema,
  ResultMetaSchema,
  ResultSchema,
} from "./base.js";

/** Params of `notifications/cancelled`: `requestId` is required again. */
export const CancelledNotificationParamsSchema = NotificationParamsSchema.extend({
  requestId: RequestIdSchema,
  reason: z.string().optional(),
});
/** Params of `notifications/cancelled`. */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** `notifications/cancelled` (stdio only; on HTTP closing the stream cancels). */
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
  message: z.string().optional(),
});
/** Params of `notifications/progress`. */
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/progress`, from the server about a request in flight. */
export const ProgressNotificationSchema = defineNotificationSchema(
  "notifications/progress",
  ProgressNotificationParamsSchema,
);
/** `notifications/progress`. */
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;

/** Which notifications a client opts in to on `subscriptions/listen`. */
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
});
/** Which notifications a client opts in to. */
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/** Params of `subscriptions/listen`. */
export const SubscriptionsListenRequestParamsSchema = RequestParamsSchema.extend({
  notifications: SubscriptionFilterSchema,
});
/** Params of `subscriptions/listen`. */
export type SubscriptionsListenRequestParams = z.infer<
  typeof SubscriptionsListenRequestParamsSchema
>;

/** `subscriptions/listen`: opens the stream that carries change notifications. */
export const SubscriptionsListenRequestSchema = defineRequestSchema(
  "subscriptions/listen",
  SubscriptionsListenRequestParamsSchema,
);
/** `subscriptions/listen`. */
export type SubscriptionsListenRequest = z.infer<typeof SubscriptionsListenRequestSchema>;

/** Result of `subscriptions/listen`, sent when the server ends the subscription gracefully. */
export const SubscriptionsListenResultSchema = ResultSchema.extend({
  _meta: ResultMetaSchema.extend({ "io.modelcontextprotocol/subscriptionId": RequestIdSchema }),
});
/** Result of `subscriptions/listen`. */
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

/** Params of `notifications/subscriptions/acknowledged`: the subset the server agreed to. */
export const SubscriptionsAcknowledgedNotificationParamsSchema = NotificationParamsSchema.extend({
  notifications: SubscriptionFilterSchema,
});

/** `notifications/subscriptions/acknowledged`: the first message of a listen stream. */
export const SubscriptionsAcknowledgedNotificationSchema = defineNotificationSchema(
  "notifications/subscriptions/acknowledged",
  SubscriptionsAcknowledgedNotificationParamsSchema,
);
/** `notifications/subscriptions/acknowledged`. */
export type SubscriptionsAcknowledgedNotification = z.infer<
  typeof SubscriptionsAcknowledgedNotificationSchema
>;
