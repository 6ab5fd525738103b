/*
 * Public surface of @patchbay/mcp-types.
 * - Per-revision namespaces: v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28.
 * - The latest revision (2026-07-28) re-exported by name at the root (generated block below).
 * - Revision-independent helpers: versions, negotiation, era detection, errors, _meta, tool names,
 *   JSON Schema, validation, descriptors.
 */
export * as v2024_11_05 from "./2024-11-05/index.js";
export * as v2025_03_26 from "./2025-03-26/index.js";
export * as v2025_06_18 from "./2025-06-18/index.js";
export * as v2025_11_25 from "./2025-11-25/index.js";
// Latest revision (2026-07-28) by name; regenerate when that revision's index changes.
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
} from "./2026-07-28/base.js";
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
} from "./2026-07-28/base.js";
export type {
  ClientCapabilities,
  ServerCapabilities,
} from "./2026-07-28/capabilities.js";
export {
  ClientCapabilitiesSchema,
  ExtensionsCapabilitySchema,
  ServerCapabilitiesSchema,
} from "./2026-07-28/capabilities.js";
export type {
  CompleteRequest,
  CompleteRequestParams,
  CompleteResult,
  PromptReference,
  ResourceTemplateReference,
} from "./2026-07-28/completion.js";
export {
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  PromptReferenceSchema,
  ResourceTemplateReferenceSchema,
} from "./2026-07-28/completion.js";
export type {
  AudioContent,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
  ToolResultContent,
  ToolUseContent,
} from "./2026-07-28/content.js";
export {
  AudioContentSchema,
  ContentBlockSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceLinkSchema,
  TextContentSchema,
  ToolResultContentSchema,
  ToolUseContentSchema,
} from "./2026-07-28/content.js";
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
} from "./2026-07-28/elicitation.js";
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
} from "./2026-07-28/elicitation.js";
export * as v2026_07_28 from "./2026-07-28/index.js";
export type {
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponseRequestParams,
  InputResponses,
} from "./2026-07-28/input-required.js";
export {
  InputRequestSchema,
  InputRequestsSchema,
  InputRequiredResultSchema,
  InputResponseRequestParamsSchema,
  InputResponseSchema,
  InputResponsesSchema,
  isInputRequiredResult,
  orInputRequired,
} from "./2026-07-28/input-required.js";
export type {
  DiscoverRequest,
  DiscoverResult,
} from "./2026-07-28/lifecycle.js";
export {
  DiscoverRequestParamsSchema,
  DiscoverRequestSchema,
  DiscoverResultSchema,
} from "./2026-07-28/lifecycle.js";
export type {
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
} from "./2026-07-28/logging.js";
export {
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
} from "./2026-07-28/logging.js";
export type {
  ClientNotification,
  ClientRequest,
  ClientResult,
  ServerNotification,
  ServerRequest,
  ServerResult,
} from "./2026-07-28/messages.js";
export {
  ClientNotificationSchema,
  ClientRequestSchema,
  ClientResultSchema,
  ServerNotificationSchema,
  ServerRequestSchema,
  ServerResultSchema,
} from "./2026-07-28/messages.js";
export { methods } from "./2026-07-28/methods.js";
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
} from "./2026-07-28/notifications.js";
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
} from "./2026-07-28/notifications.js";
export type {
  Cursor,
  LoggingLevel,
  ProgressToken,
  RequestId,
  Role,
} from "./2026-07-28/primitives.js";
export {
  CursorSchema,
  LoggingLevelSchema,
  ProgressTokenSchema,
  RequestIdSchema,
  RoleSchema,
} from "./2026-07-28/primitives.js";
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
} from "./2026-07-28/prompts.js";
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
} from "./2026-07-28/prompts.js";
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
} from "./2026-07-28/resources.js";
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
} from "./2026-07-28/resources.js";
export type {
  ListRootsRequest,
  ListRootsResult,
  Root,
} from "./2026-07-28/roots.js";
export {
  ListRootsRequestSchema,
  ListRootsResultSchema,
  RootSchema,
} from "./2026-07-28/roots.js";
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
} from "./2026-07-28/sampling.js";
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
} from "./2026-07-28/sampling.js";
export { TASKS_EXTENSION_ID } from "./2026-07-28/tasks.js";
export type {
  Tool,
  ToolInputSchema,
  ToolOutputSchema,
} from "./2026-07-28/tool.js";
export {
  ToolInputSchemaSchema,
  ToolOutputSchemaSchema,
  ToolSchema,
} from "./2026-07-28/tool.js";
export type {
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  ListToolsRequest,
  ListToolsResult,
  ToolAnnotations,
  ToolListChangedNotification,
} from "./2026-07-28/tools.js";
export {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestParamsSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  ToolAnnotationsSchema,
  ToolListChangedNotificationSchema,
} from "./2026-07-28/tools.js";
export type {
  HookNotification,
  McpCancellationHooks,
  McpConnectionHooks,
  McpProgressHooks,
} from "./connection-hooks.js";
export { createMcpConnectionHooks } from "./connection-hooks.js";
export type { McpErrorObject, UrlElicitation } from "./errors/error-builders.js";
export {
  createHeaderMismatchError,
  createInvalidParamsError,
  createMissingRequiredClientCapabilityError,
  createResourceNotFoundError,
  createUnsupportedProtocolVersionError,
  createUrlElicitationRequiredError,
} from "./errors/error-builders.js";
export {
  ERROR_CODES_BY_REVISION,
  ErrorCode,
  IMPLEMENTATION_DEFINED_ERROR_CODES,
  isErrorCodeOfRevision,
  isImplementationDefinedErrorCode,
  isSpecErrorCode,
  JSONRPC_ERROR_CODES,
  MCP_ERROR_CODES,
  SPEC_RESERVED_ERROR_CODES,
} from "./errors/error-codes.js";
export { createLocalFailureError, isLocalFailureCode } from "./errors/local-failure.js";
export {
  LAST_EVENT_ID_HEADER,
  MCP_METHOD_HEADER,
  MCP_NAME_HEADER,
  MCP_PARAM_HEADER_PREFIX,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
} from "./http-headers.js";
export {
  initializedAliasNotification,
  METHOD_ALIASES,
  normalizeMessage,
  normalizeMethodName,
} from "./leniency/normalize-message.js";
export type { WithMeta } from "./meta/meta-access.js";
export {
  getMeta,
  getMetaValue,
  getProgressToken,
  withMeta,
  withProgressToken,
} from "./meta/meta-access.js";
export type { MetaKeyParts } from "./meta/meta-keys.js";
export {
  BAGGAGE_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isReservedMetaKey,
  isValidMetaKey,
  LOG_LEVEL_META_KEY,
  PROGRESS_TOKEN_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  parseMetaKey,
  RELATED_TASK_META_KEY,
  RESERVED_UNPREFIXED_META_KEYS,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from "./meta/meta-keys.js";
export type { ModernRequestMeta } from "./meta/modern-request-meta.js";
export {
  getModernRequestMeta,
  getServerInfo,
  getSubscriptionId,
  withModernRequestMeta,
} from "./meta/modern-request-meta.js";
export type { TraceContext } from "./meta/trace-context.js";
export {
  getTraceContext,
  getTraceIdFromTraceparent,
  isValidTraceparent,
  withTraceContext,
} from "./meta/trace-context.js";
export type {
  McpMethodDescriptor,
  McpNotificationDescriptor,
  McpRequestDescriptor,
  SchemaLike,
} from "./methods/method-descriptor.js";
export type { McpMethod, MethodDirection, MethodInfo, MethodKind } from "./methods/method-table.js";
export { getMethodRevisions, isMcpMethod, METHOD_TABLE } from "./methods/method-table.js";
export type { RevisionMethod } from "./methods/revision-methods.js";
export { getMethodDescriptor, REVISION_METHODS } from "./methods/revision-methods.js";
export type { HttpAnswer } from "./negotiation/era-detection.js";
export {
  detectEraFromDiscoverResponse,
  detectEraFromFirstMessage,
  detectEraFromHttpResponse,
  isModernErrorObject,
  MODERN_ERROR_CODES,
} from "./negotiation/era-detection.js";
export {
  isNegotiatedVersionAcceptable,
  latestLegacyVersion,
  negotiateLegacyProtocolVersion,
} from "./negotiation/legacy-negotiation.js";
export type { ModernVersionCheck } from "./negotiation/modern-version-check.js";
export { checkModernProtocolVersion } from "./negotiation/modern-version-check.js";
export type {
  JSONRPCBatch,
  JSONRPCErrorObject,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
} from "./shared/json-rpc.js";
export {
  JSONRPC_VERSION,
  JSONRPCBatchSchema,
  JSONRPCErrorObjectSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from "./shared/json-rpc.js";
export type { JSONObject, JSONValueObject, Meta } from "./shared/primitives.js";
export {
  JSONObjectSchema,
  JSONValueObjectSchema,
  MetaSchema,
  ObjectSchema,
} from "./shared/primitives.js";
export type { ToolJSONSchema } from "./tools/json-schema.js";
export { JSON_SCHEMA_2020_12, toToolInputSchema, toToolOutputSchema } from "./tools/json-schema.js";
export type { ToolNameValidation } from "./tools/tool-name.js";
export {
  isValidToolName,
  TOOL_NAME_MAX_LENGTH,
  TOOL_NAME_PATTERN,
  ToolNameSchema,
  validateToolName,
} from "./tools/tool-name.js";
export type {
  ShallowNotificationDescriptor,
  ShallowRequestDescriptor,
  ShallowSchema,
} from "./validation/shallow-schema.js";
export {
  createShallowSchema,
  ShallowValidationError,
  toShallowDescriptor,
} from "./validation/shallow-schema.js";
export type { ValidateMessageOptions } from "./validation/validate-message.js";
export { validateMessage } from "./validation/validate-message.js";
export type { ValidationIssue, ValidationResult } from "./validation/validation-issue.js";
export { formatIssuePath, formatIssues } from "./validation/validation-issue.js";
export type {
  LegacyProtocolVersion,
  ModernProtocolVersion,
  ProtocolEra,
  ProtocolVersion,
} from "./versions.js";
export {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  getProtocolEra,
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  isProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
} from "./versions.js";
