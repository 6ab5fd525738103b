/**
 * The methods every legacy revision (2024-11-05 to 2025-11-25) has, with the names of the schemas
 * each revision's `schemas.ts` exports for them; later revisions add or replace entries.
 */
export const LEGACY_CORE_METHOD_SCHEMAS = {
  initialize: { params: "InitializeRequestParamsSchema", result: "InitializeResultSchema" },
  "notifications/initialized": { params: "InitializedNotificationParamsSchema" },
  ping: { params: "PingRequestParamsSchema", result: "EmptyResultSchema" },
  "notifications/cancelled": { params: "CancelledNotificationParamsSchema" },
  "notifications/progress": { params: "ProgressNotificationParamsSchema" },
  "tools/list": { params: "ListToolsRequestParamsSchema", result: "ListToolsResultSchema" },
  "tools/call": { params: "CallToolRequestParamsSchema", result: "CallToolResultSchema" },
  "notifications/tools/list_changed": { params: "OptionalNotificationParamsSchema" },
  "resources/list": {
    params: "ListResourcesRequestParamsSchema",
    result: "ListResourcesResultSchema",
  },
  "resources/templates/list": {
    params: "ListResourceTemplatesRequestParamsSchema",
    result: "ListResourceTemplatesResultSchema",
  },
  "resources/read": {
    params: "ReadResourceRequestParamsSchema",
    result: "ReadResourceResultSchema",
  },
  "resources/subscribe": { params: "SubscribeRequestParamsSchema", result: "EmptyResultSchema" },
  "resources/unsubscribe": {
    params: "UnsubscribeRequestParamsSchema",
    result: "EmptyResultSchema",
  },
  "notifications/resources/list_changed": { params: "OptionalNotificationParamsSchema" },
  "notifications/resources/updated": { params: "ResourceUpdatedNotificationParamsSchema" },
  "prompts/list": { params: "ListPromptsRequestParamsSchema", result: "ListPromptsResultSchema" },
  "prompts/get": { params: "GetPromptRequestParamsSchema", result: "GetPromptResultSchema" },
  "notifications/prompts/list_changed": { params: "OptionalNotificationParamsSchema" },
  "completion/complete": {
    params: "CompleteRequestParamsSchema",
    result: "CompleteResultSchema",
  },
  "logging/setLevel": { params: "SetLevelRequestParamsSchema", result: "EmptyResultSchema" },
  "notifications/message": { params: "LoggingMessageNotificationParamsSchema" },
  "sampling/createMessage": {
    params: "CreateMessageRequestParamsSchema",
    result: "CreateMessageResultSchema",
  },
  "roots/list": { params: "ListRootsRequestParamsSchema", result: "ListRootsResultSchema" },
  "notifications/roots/list_changed": { params: "OptionalNotificationParamsSchema" },
} as const;
