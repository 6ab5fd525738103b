import {
  defineNotificationDescriptor,
  defineRequestDescriptor,
} from "../methods/method-descriptor.js";
import { OptionalNotificationParamsSchema } from "./base.js";
import { CompleteRequestParamsSchema, CompleteResultSchema } from "./completion.js";
import { orInputRequired } from "./input-required.js";
import { DiscoverRequestParamsSchema, DiscoverResultSchema } from "./lifecycle.js";
import { LoggingMessageNotificationParamsSchema } from "./logging.js";
import {
  CancelledNotificationParamsSchema,
  ProgressNotificationParamsSchema,
  SubscriptionsAcknowledgedNotificationParamsSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenResultSchema,
} from "./notifications.js";
import {
  GetPromptRequestParamsSchema,
  GetPromptResultSchema,
  ListPromptsRequestParamsSchema,
  ListPromptsResultSchema,
} from "./prompts.js";
import {
  ListResourcesRequestParamsSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestParamsSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceResultSchema,
  ResourceUpdatedNotificationParamsSchema,
} from "./resources.js";
import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  ListToolsRequestParamsSchema,
  ListToolsResultSchema,
} from "./tools.js";

const REVISION = "2026-07-28";

/**
 * Descriptor of every request and notification of revision 2026-07-28, keyed by method name.
 * `tools/call`, `prompts/get` and `resources/read` results are the complete shape or
 * `InputRequiredResult`.
 */
export const methods = {
  "server/discover": defineRequestDescriptor(
    REVISION,
    "server/discover",
    DiscoverRequestParamsSchema,
    DiscoverResultSchema,
  ),
  "subscriptions/listen": defineRequestDescriptor(
    REVISION,
    "subscriptions/listen",
    SubscriptionsListenRequestParamsSchema,
    SubscriptionsListenResultSchema,
  ),
  "notifications/subscriptions/acknowledged": defineNotificationDescriptor(
    REVISION,
    "notifications/subscriptions/acknowledged",
    SubscriptionsAcknowledgedNotificationParamsSchema,
  ),
  "notifications/cancelled": defineNotificationDescriptor(
    REVISION,
    "notifications/cancelled",
    CancelledNotificationParamsSchema,
  ),
  "notifications/progress": defineNotificationDescriptor(
    REVISION,
    "notifications/progress",
    ProgressNotificationParamsSchema,
    "server-to-client",
  ),
  "tools/list": defineRequestDescriptor(
    REVISION,
    "tools/list",
    ListToolsRequestParamsSchema,
    ListToolsResultSchema,
  ),
  "tools/call": defineRequestDescriptor(
    REVISION,
    "tools/call",
    CallToolRequestParamsSchema,
    orInputRequired(CallToolResultSchema),
  ),
  "notifications/tools/list_changed": defineNotificationDescriptor(
    REVISION,
    "notifications/tools/list_changed",
    OptionalNotificationParamsSchema,
  ),
  "resources/list": defineRequestDescriptor(
    REVISION,
    "resources/list",
    ListResourcesRequestParamsSchema,
    ListResourcesResultSchema,
  ),
  "resources/templates/list": defineRequestDescriptor(
    REVISION,
    "resources/templates/list",
    ListResourceTemplatesRequestParamsSchema,
    ListResourceTemplatesResultSchema,
  ),
  "resources/read": defineRequestDescriptor(
    REVISION,
    "resources/read",
    ReadResourceRequestParamsSchema,
    orInputRequired(ReadResourceResultSchema),
  ),
  "notifications/resources/list_changed": defineNotificationDescriptor(
    REVISION,
    "notifications/resources/list_changed",
    OptionalNotificationParamsSchema,
  ),
  "notifications/resources/updated": defineNotificationDescriptor(
    REVISION,
    "notifications/resources/updated",
    ResourceUpdatedNotificationParamsSchema,
  ),
  "prompts/list": defineRequestDescriptor(
    REVISION,
    "prompts/list",
    ListPromptsRequestParamsSchema,
    ListPromptsResultSchema,
  ),
  "prompts/get": defineRequestDescriptor(
    REVISION,
    "prompts/get",
    GetPromptRequestParamsSchema,
    orInputRequired(GetPromptResultSchema),
  ),
  "notifications/prompts/list_changed": defineNotificationDescriptor(
    REVISION,
    "notifications/prompts/list_changed",
    OptionalNotificationParamsSchema,
  ),
  "completion/complete": defineRequestDescriptor(
    REVISION,
    "completion/complete",
    CompleteRequestParamsSchema,
    CompleteResultSchema,
  ),
  "notifications/message": defineNotificationDescriptor(
    REVISION,
    "notifications/message",
    LoggingMessageNotificationParamsSchema,
  ),
} as const;
