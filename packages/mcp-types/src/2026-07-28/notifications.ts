import { z } from "zod";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
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

const cancelledNotificationSchema = defineNotificationSchema(
  "notifications/cancelled",
  CancelledNotificationParamsSchema,
);
/** The zod type of {@link CancelledNotificationSchema}, named so that declarations refer to it. */
export interface CancelledNotificationSchemaType
  extends SchemaType<typeof cancelledNotificationSchema> {}
/** `notifications/cancelled` (stdio only; on HTTP closing the stream cancels). */
export const CancelledNotificationSchema: CancelledNotificationSchemaType =
  cancelledNotificationSchema;
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

const progressNotificationSchema = defineNotificationSchema(
  "notifications/progress",
  ProgressNotificationParamsSchema,
);
/** The zod type of {@link ProgressNotificationSchema}, named so that declarations refer to it. */
export interface ProgressNotificationSchemaType
  extends SchemaType<typeof progressNotificationSchema> {}
/** `notifications/progress`, from the server about a request in flight. */
export const ProgressNotificationSchema: ProgressNotificationSchemaType =
  progressNotificationSchema;
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

const subscriptionsListenRequestParamsSchema = RequestParamsSchema.extend({
  notifications: SubscriptionFilterSchema,
});
/** The zod type of {@link SubscriptionsListenRequestParamsSchema}, named so that declarations refer to it. */
export interface SubscriptionsListenRequestParamsSchemaType
  extends SchemaType<typeof subscriptionsListenRequestParamsSchema> {}
/** Params of `subscriptions/listen`. */
export const SubscriptionsListenRequestParamsSchema: SubscriptionsListenRequestParamsSchemaType =
  subscriptionsListenRequestParamsSchema;
/** Params of `subscriptions/listen`. */
export type SubscriptionsListenRequestParams = z.infer<
  typeof SubscriptionsListenRequestParamsSchema
>;

const subscriptionsListenRequestSchema = defineRequestSchema(
  "subscriptions/listen",
  SubscriptionsListenRequestParamsSchema,
);
/** The zod type of {@link SubscriptionsListenRequestSchema}, named so that declarations refer to it. */
export interface SubscriptionsListenRequestSchemaType
  extends SchemaType<typeof subscriptionsListenRequestSchema> {}
/** `subscriptions/listen`: opens the stream that carries change notifications. */
export const SubscriptionsListenRequestSchema: SubscriptionsListenRequestSchemaType =
  subscriptionsListenRequestSchema;
/** `subscriptions/listen`. */
export type SubscriptionsListenRequest = z.infer<typeof SubscriptionsListenRequestSchema>;

const subscriptionsListenResultSchema = ResultSchema.extend({
  _meta: ResultMetaSchema.extend({ "io.modelcontextprotocol/subscriptionId": RequestIdSchema }),
});
/** The zod type of {@link SubscriptionsListenResultSchema}, named so that declarations refer to it. */
export interface SubscriptionsListenResultSchemaType
  extends SchemaType<typeof subscriptionsListenResultSchema> {}
/** Result of `subscriptions/listen`, sent when the server ends the subscription gracefully. */
export const SubscriptionsListenResultSchema: SubscriptionsListenResultSchemaType =
  subscriptionsListenResultSchema;
/** Result of `subscriptions/listen`. */
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

const subscriptionsAcknowledgedNotificationParamsSchema = NotificationParamsSchema.extend({
  notifications: SubscriptionFilterSchema,
});
/** The zod type of {@link SubscriptionsAcknowledgedNotificationParamsSchema}, named so that declarations refer to it. */
export interface SubscriptionsAcknowledgedNotificationParamsSchemaType
  extends SchemaType<typeof subscriptionsAcknowledgedNotificationParamsSchema> {}
/** Params of `notifications/subscriptions/acknowledged`: the subset the server agreed to. */
export const SubscriptionsAcknowledgedNotificationParamsSchema: SubscriptionsAcknowledgedNotificationParamsSchemaType =
  subscriptionsAcknowledgedNotificationParamsSchema;

const subscriptionsAcknowledgedNotificationSchema = defineNotificationSchema(
  "notifications/subscriptions/acknowledged",
  SubscriptionsAcknowledgedNotificationParamsSchema,
);
/** The zod type of {@link SubscriptionsAcknowledgedNotificationSchema}, named so that declarations refer to it. */
export interface SubscriptionsAcknowledgedNotificationSchemaType
  extends SchemaType<typeof subscriptionsAcknowledgedNotificationSchema> {}
/** `notifications/subscriptions/acknowledged`: the first message of a listen stream. */
export const SubscriptionsAcknowledgedNotificationSchema: SubscriptionsAcknowledgedNotificationSchemaType =
  subscriptionsAcknowledgedNotificationSchema;
/** `notifications/subscriptions/acknowledged`. */
export type SubscriptionsAcknowledgedNotification = z.infer<
  typeof SubscriptionsAcknowledgedNotificationSchema
>;
