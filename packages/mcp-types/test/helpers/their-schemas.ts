import * as core from "@modelcontextprotocol/core";
import * as v1 from "@modelcontextprotocol/sdk/types.js";

/** Something with zod's safeParse. */
export interface TheirSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/** The official SDK's schemas for one method: its request (`{method, params}`) and result. */
export interface TheirMethodSchemas {
  readonly request?: TheirSchema;
  readonly result?: TheirSchema;
  readonly notification?: TheirSchema;
}

/** SDK 1.32.2's exported zod schemas (2025-11-25), by method. */
export const sdkV1Schemas: Record<string, TheirMethodSchemas> = {
  initialize: { request: v1.InitializeRequestSchema, result: v1.InitializeResultSchema },
  "notifications/initialized": { notification: v1.InitializedNotificationSchema },
  ping: { request: v1.PingRequestSchema, result: v1.EmptyResultSchema },
  "tools/list": { request: v1.ListToolsRequestSchema, result: v1.ListToolsResultSchema },
  "tools/call": { request: v1.CallToolRequestSchema, result: v1.CallToolResultSchema },
  "resources/list": {
    request: v1.ListResourcesRequestSchema,
    result: v1.ListResourcesResultSchema,
  },
  "resources/templates/list": {
    request: v1.ListResourceTemplatesRequestSchema,
    result: v1.ListResourceTemplatesResultSchema,
  },
  "resources/read": { request: v1.ReadResourceRequestSchema, result: v1.ReadResourceResultSchema },
  "resources/subscribe": { request: v1.SubscribeRequestSchema, result: v1.EmptyResultSchema },
  "prompts/list": { request: v1.ListPromptsRequestSchema, result: v1.ListPromptsResultSchema },
  "prompts/get": { request: v1.GetPromptRequestSchema, result: v1.GetPromptResultSchema },
  "completion/complete": { request: v1.CompleteRequestSchema, result: v1.CompleteResultSchema },
  "logging/setLevel": { request: v1.SetLevelRequestSchema, result: v1.EmptyResultSchema },
  "sampling/createMessage": {
    request: v1.CreateMessageRequestSchema,
    result: v1.CreateMessageResultSchema,
  },
  "elicitation/create": { request: v1.ElicitRequestSchema, result: v1.ElicitResultSchema },
  "roots/list": { request: v1.ListRootsRequestSchema, result: v1.ListRootsResultSchema },
  "tasks/get": { request: v1.GetTaskRequestSchema, result: v1.GetTaskResultSchema },
  "notifications/message": { notification: v1.LoggingMessageNotificationSchema },
  "notifications/progress": { notification: v1.ProgressNotificationSchema },
  "notifications/cancelled": { notification: v1.CancelledNotificationSchema },
  "notifications/resources/updated": { notification: v1.ResourceUpdatedNotificationSchema },
  "notifications/roots/list_changed": { notification: v1.RootsListChangedNotificationSchema },
};

/** SDK 2.4.0's exported zod schemas (`@modelcontextprotocol/core`), by method. */
export const sdkV2Schemas: Record<string, TheirMethodSchemas> = {
  initialize: { request: core.InitializeRequestSchema, result: core.InitializeResultSchema },
  "server/discover": { request: core.DiscoverRequestSchema, result: core.DiscoverResultSchema },
  "tools/list": { request: core.ListToolsRequestSchema, result: core.ListToolsResultSchema },
  "tools/call": { request: core.CallToolRequestSchema, result: core.CallToolResultSchema },
  "resources/list": {
    request: core.ListResourcesRequestSchema,
    result: core.ListResourcesResultSchema,
  },
  "resources/read": {
    request: core.ReadResourceRequestSchema,
    result: core.ReadResourceResultSchema,
  },
  "prompts/list": { request: core.ListPromptsRequestSchema, result: core.ListPromptsResultSchema },
  "prompts/get": { request: core.GetPromptRequestSchema, result: core.GetPromptResultSchema },
  "subscriptions/listen": {
    request: core.SubscriptionsListenRequestSchema,
    result: core.SubscriptionsListenResultSchema,
  },
  "notifications/subscriptions/acknowledged": {
    notification: core.SubscriptionsAcknowledgedNotificationSchema,
  },
  "notifications/tools/list_changed": { notification: core.ToolListChangedNotificationSchema },
  "notifications/cancelled": { notification: core.CancelledNotificationSchema },
};
