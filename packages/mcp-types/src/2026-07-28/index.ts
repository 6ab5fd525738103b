export type {
  Annotations,
  CacheableResult,
  EmptyResult,
  Icon,
  Implementation,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  RequestMeta,
  RequestParams,
  Result,
} from "./base.js";
export {
  AnnotationsSchema,
  CacheableResultSchema,
  EmptyResultSchema,
  IconSchema,
  IconsSchema,
  ImplementationSchema,
  NotificationMetaSchema,
  NotificationParamsSchema,
  OptionalNotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  RequestMetaSchema,
  RequestParamsSchema,
  ResultMetaSchema,
  ResultSchema,
} from "./base.js";
export type {
  ClientCapabilities,
  ServerCapabilities,
} from "./capabilities.js";
export {
  ClientCapabilitiesSchema,
  ExtensionsCapabilitySchema,
  ServerCapabilitiesSchema,
} from "./capabilities.js";
export type {
  CompleteRequest,
  CompleteRequestParams,
  CompleteResult,
  PromptReference,
  ResourceTemplateReference,
} from "./completion.js";
export {
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  PromptReferenceSchema,
  ResourceTemplateReferenceSchema,
} from "./completion.js";
export type {
  AudioContent,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
  ToolResultContent,
  ToolUseContent,
} from "./content.js";
export {
  AudioContentSchema,
  ContentBlockSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceLinkSchema,
  TextContentSchema,
  ToolResultContentSchema,
  ToolUseContentSchema,
} from "./content.js";
export type {
  BooleanSchema,
  ElicitationRequestedSchema,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EnumSchema,
  LegacyTitledEnumSchema,
  MultiSelectEnumSchema,
  NumberSchema,
  PrimitiveSchemaDefinition,
  SingleSelectEnumSchema,
  StringSchema,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from "./elicitation.js";
export {
  BooleanSchemaSchema,
  ElicitationRequestedSchemaSchema,
  ElicitContentSchema,
  ElicitRequestFormParamsSchema,
  ElicitRequestParamsSchema,
  ElicitRequestSchema,
  ElicitRequestURLParamsSchema,
  ElicitResultSchema,
  EnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  MultiSelectEnumSchemaSchema,
  NumberSchemaSchema,
  PrimitiveSchemaDefinitionSchema,
  SingleSelectEnumSchemaSchema,
  StringSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
} from "./elicitation.js";
export type {
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponseRequestParams,
  InputResponses,
} from "./input-required.js";
export {
  InputRequestSchema,
  InputRequestsSchema,
  InputRequiredResultSchema,
  InputResponseRequestParamsSchema,
  InputResponseSchema,
  InputResponsesSchema,
  isInputRequiredResult,
  orInputRequired,
} from "./input-required.js";
export type {
  DiscoverRequest,
  DiscoverResult,
} from "./lifecycle.js";
export {
  DiscoverRequestParamsSchema,
  DiscoverRequestSchema,
  DiscoverResultSchema,
} from "./lifecycle.js";
export type {
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
} from "./logging.js";
export {
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
} from "./logging.js";
export type {
  ClientNotification,
  ClientRequest,
  ClientResult,
  ServerNotification,
  ServerRequest,
  ServerResult,
} from "./messages.js";
export {
  ClientNotificationSchema,
  ClientRequestSchema,
  ClientResultSchema,
  ServerNotificationSchema,
  ServerRequestSchema,
  ServerResultSchema,
} from "./messages.js";
export { methods } from "./methods.js";
export type {
  CancelledNotification,
  CancelledNotificationParams,
  ProgressNotification,
  ProgressNotificationParams,
  SubscriptionFilter,
  SubscriptionsAcknowledgedNotification,
  SubscriptionsListenRequest,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
} from "./notifications.js";
export {
  CancelledNotificationParamsSchema,
  CancelledNotificationSchema,
  ProgressNotificationParamsSchema,
  ProgressNotificationSchema,
  SubscriptionFilterSchema,
  SubscriptionsAcknowledgedNotificationParamsSchema,
  SubscriptionsAcknowledgedNotificationSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenRequestSchema,
  SubscriptionsListenResultSchema,
} from "./notifications.js";
export type {
  Cursor,
  LoggingLevel,
  ProgressToken,
  RequestId,
  Role,
} from "./primitives.js";
export {
  CursorSchema,
  LoggingLevelSchema,
  ProgressTokenSchema,
  RequestIdSchema,
  RoleSchema,
} from "./primitives.js";
export type {
  GetPromptRequest,
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequest,
  ListPromptsResult,
  Prompt,
  PromptArgument,
  PromptListChangedNotification,
  PromptMessage,
} from "./prompts.js";
export {
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestParamsSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  PromptArgumentSchema,
  PromptListChangedNotificationSchema,
  PromptMessageSchema,
  PromptSchema,
} from "./prompts.js";
export type {
  BlobResourceContents,
  ListResourcesRequest,
  ListResourcesResult,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ReadResourceRequest,
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceListChangedNotification,
  ResourceTemplate,
  ResourceUpdatedNotification,
  TextResourceContents,
} from "./resources.js";
export {
  BlobResourceContentsSchema,
  ListResourcesRequestParamsSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestParamsSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  ResourceContentsSchema,
  ResourceContentsUnionSchema,
  ResourceListChangedNotificationSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ResourceUpdatedNotificationParamsSchema,
  ResourceUpdatedNotificationSchema,
  TextResourceContentsSchema,
} from "./resources.js";
export type {
  ListRootsRequest,
  ListRootsResult,
  Root,
} from "./roots.js";
export {
  ListRootsRequestSchema,
  ListRootsResultSchema,
  RootSchema,
} from "./roots.js";
export type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  CreateMessageResult,
  ModelHint,
  ModelPreferences,
  SamplingContent,
  SamplingMessage,
  SamplingMessageContentBlock,
  ToolChoice,
} from "./sampling.js";
export {
  CreateMessageRequestParamsSchema,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  ModelHintSchema,
  ModelPreferencesSchema,
  SamplingContentSchema,
  SamplingMessageContentBlockSchema,
  SamplingMessageSchema,
  ToolChoiceSchema,
} from "./sampling.js";
export { TASKS_EXTENSION_ID } from "./tasks.js";
export type {
  Tool,
  ToolInputSchema,
  ToolOutputSchema,
} from "./tool.js";
export {
  ToolInputSchemaSchema,
  ToolOutputSchemaSchema,
  ToolSchema,
} from "./tool.js";
export type {
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  ListToolsRequest,
  ListToolsResult,
  ToolAnnotations,
  ToolListChangedNotification,
} from "./tools.js";
export {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestParamsSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  ToolAnnotationsSchema,
  ToolListChangedNotificationSchema,
} from "./tools.js";
