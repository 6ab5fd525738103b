import { createMethods } from "../methods/create-methods.js";
import * as schemas from "./schemas.js";

/**
 * The methods of revision 2026-07-28 and the names of their schemas. `tools/call`, `prompts/get`
 * and `resources/read` results are the complete shape or `InputRequiredResult`; progress comes
 * only from the server.
 */
export const METHOD_SCHEMAS = {
  "server/discover": { params: "DiscoverRequestParamsSchema", result: "DiscoverResultSchema" },
  "subscriptions/listen": {
    params: "SubscriptionsListenRequestParamsSchema",
    result: "SubscriptionsListenResultSchema",
  },
  "notifications/subscriptions/acknowledged": {
    params: "SubscriptionsAcknowledgedNotificationParamsSchema",
  },
  "notifications/cancelled": { params: "CancelledNotificationParamsSchema" },
  "notifications/progress": {
    params: "ProgressNotificationParamsSchema",
    direction: "server-to-client",
  },
  "tools/list": { params: "ListToolsRequestParamsSchema", result: "ListToolsResultSchema" },
  "tools/call": {
    params: "CallToolRequestParamsSchema",
    result: "CallToolResultOrInputRequiredSchema",
  },
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
    result: "ReadResourceResultOrInputRequiredSchema",
  },
  "notifications/resources/list_changed": { params: "OptionalNotificationParamsSchema" },
  "notifications/resources/updated": { params: "ResourceUpdatedNotificationParamsSchema" },
  "prompts/list": { params: "ListPromptsRequestParamsSchema", result: "ListPromptsResultSchema" },
  "prompts/get": {
    params: "GetPromptRequestParamsSchema",
    result: "GetPromptResultOrInputRequiredSchema",
  },
  "notifications/prompts/list_changed": { params: "OptionalNotificationParamsSchema" },
  "completion/complete": {
    params: "CompleteRequestParamsSchema",
    result: "CompleteResultSchema",
  },
  "notifications/message": { params: "LoggingMessageNotificationParamsSchema" },
} as const;

/** Descriptor of every request and notification of revision 2026-07-28, keyed by method name. */
export const methods = createMethods("2026-07-28", METHOD_SCHEMAS, schemas);
