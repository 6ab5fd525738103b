export type {
  CancelledNotificationParams,
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  ResourceUpdatedNotificationParams,
  ServerNotificationMap,
  ServerNotificationMethod,
} from "./client-events.js";
export type {
  ClientHandlers,
  ClientRequestContext,
  ElicitationHandler,
  RootsHandler,
  SamplingHandler,
} from "./client-handlers.js";
export type {
  CallOptions,
  Client,
  ClientOptions,
  CompleteParams,
  CompleteReference,
  ListOptions,
} from "./client-types.js";
export { createClient } from "./create-client.js";
export { NotConnectedError } from "./errors/not-connected-error.js";
export { UnsupportedProtocolVersionError } from "./errors/unsupported-protocol-version-error.js";
export { isLoggingLevel, LOGGING_LEVELS, type LoggingLevel } from "./log-level.js";
export type {
  Annotations,
  CallToolResult,
  ClientCapabilities,
  Completion,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  Icon,
  Implementation,
  InitializeResult,
  JSONObject,
  ListRootsResult,
  Meta,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Root,
  SamplingMessage,
  ServerCapabilities,
  Tool,
  ToolAnnotations,
} from "./protocol-types.js";
export {
  LATEST_LEGACY_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./protocol-versions.js";
