export type {
  Annotations,
  EmptyResult,
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
  EmptyResultSchema,
  ImplementationSchema,
  NotificationParamsSchema,
  OptionalNotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  RequestMetaSchema,
  RequestParamsSchema,
  ResultSchema,
} from "./base.js";
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
} from "./content.js";
export {
  AudioContentSchema,
  ContentBlockSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceLinkSchema,
  TextContentSchema,
} from "./content.js";
export type {
  BooleanSchema,
  ElicitationRequestedSchema,
  ElicitRequest,
  ElicitRequestParams,
  ElicitResult,
  EnumSchema,
  NumberSchema,
  PrimitiveSchemaDefinition,
  StringSchema,
} from "./elicitation.js";
export {
  BooleanSchemaSchema,
  ElicitationRequestedSchemaSchema,
  ElicitContentSchema,
  ElicitRequestParamsSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  EnumSchemaSchema,
  NumberSchemaSchema,
  PrimitiveSchemaDefinitionSchema,
  StringSchemaSchema,
} from "./elicitation.js";
export type {
  ClientCapabilities,
  InitializedNotification,
  InitializeRequest,
  InitializeRequestParams,
  InitializeResult,
  PingRequest,
  ServerCapabilities,
} from "./lifecycle.js";
export {
  ClientCapabilitiesSchema,
  InitializedNotificationParamsSchema,
  InitializedNotificationSchema,
  InitializeRequestParamsSchema,
  InitializeRequestSchema,
  InitializeResultSchema,
  PingRequestParamsSchema,
  PingRequestSchema,
  ServerCapabilitiesSchema,
} from "./lifecycle.js";
export type {
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
  SetLevelRequest,
  SetLevelRequestParams,
} from "./logging.js";
export {
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
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
} from "./notifications.js";
export {
  CancelledNotificationParamsSchema,
  CancelledNotificationSchema,
  ProgressNotificationParamsSchema,
  ProgressNotificationSchema,
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
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceListChangedNotification,
  ResourceRequestParams,
  ResourceTemplate,
  ResourceUpdatedNotification,
  SubscribeRequest,
  TextResourceContents,
  UnsubscribeRequest,
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
  ResourceRequestParamsSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ResourceUpdatedNotificationParamsSchema,
  ResourceUpdatedNotificationSchema,
  SubscribeRequestParamsSchema,
  SubscribeRequestSchema,
  TextResourceContentsSchema,
  UnsubscribeRequestParamsSchema,
  UnsubscribeRequestSchema,
} from "./resources.js";
export type {
  ListRootsRequest,
  ListRootsResult,
  Root,
  RootsListChangedNotification,
} from "./roots.js";
export {
  ListRootsRequestParamsSchema,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  RootSchema,
  RootsListChangedNotificationSchema,
} from "./roots.js";
export type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  CreateMessageResult,
  ModelHint,
  ModelPreferences,
  SamplingContent,
  SamplingMessage,
} from "./sampling.js";
export {
  CreateMessageRequestParamsSchema,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  ModelHintSchema,
  ModelPreferencesSchema,
  SamplingContentSchema,
  SamplingMessageSchema,
} from "./sampling.js";
export type {
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  ListToolsRequest,
  ListToolsResult,
  Tool,
  ToolAnnotations,
  ToolInputSchema,
  ToolListChangedNotification,
  ToolOutputSchema,
} from "./tools.js";
export {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestParamsSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  ToolAnnotationsSchema,
  ToolInputSchemaSchema,
  ToolListChangedNotificationSchema,
  ToolOutputSchemaSchema,
  ToolSchema,
} from "./tools.js";
