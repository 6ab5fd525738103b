export type { CompletionContext, CompletionProvider } from "./completion-provider.js";
export { MAX_COMPLETION_VALUES } from "./completion-provider.js";
export { createServer, type Server, type ServerOptions } from "./create-server.js";
export { MissingClientCapabilityError } from "./errors/missing-client-capability-error.js";
export { RESOURCE_NOT_FOUND, ResourceNotFoundError } from "./errors/resource-not-found-error.js";
export type { SchemaInput } from "./input-schema.js";
export { isLoggingLevel, LOGGING_LEVELS, type LoggingLevel } from "./log-level.js";
export {
  LATEST_LEGACY_PROTOCOL_VERSION,
  negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./negotiate-protocol-version.js";
export {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  type Page,
  paginate,
} from "./pagination.js";
export type {
  PromptArgumentConfig,
  PromptConfig,
  PromptHandler,
} from "./prompt.js";
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
export type { Registration } from "./registry.js";
export type { RequestHandlerContext } from "./request-handler-context.js";
export type { ResourceConfig, ResourceReader } from "./resource.js";
export type { ResourceTemplateConfig, ResourceTemplateReader } from "./resource-template-entry.js";
export type { ClientRequestOptions, ListKind, ServerSession } from "./server-session.js";
export type { ToolConfig, ToolHandler, ToolResult } from "./tool.js";
export { UriTemplate, type UriTemplateVariables } from "./uri-template.js";
