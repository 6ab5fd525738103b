import type { v2025_11_25 } from "@patchbay/mcp-types";

// Protocol types come from @patchbay/mcp-types (revision 2025-11-25, the newest one with the
// initialize handshake this package speaks); the handler results are re-exported for convenience.
// They are inferred from loose zod schemas, so each object type has an index signature: unknown
// fields pass through, and a misspelt optional field is not a type error.
export {
  isLoggingLevel,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  type LoggingLevel,
  negotiateLegacyProtocolVersion as negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@patchbay/mcp-types";
export type { CompletionContext, CompletionProvider } from "./completion-provider.js";
export { MAX_COMPLETION_VALUES } from "./completion-provider.js";
export { createServer, type Server, type ServerOptions } from "./create-server.js";
export { MissingClientCapabilityError } from "./errors/missing-client-capability-error.js";
export { RESOURCE_NOT_FOUND, ResourceNotFoundError } from "./errors/resource-not-found-error.js";
export {
  type AcceptedInitialize,
  acceptInitialize,
  type InitializeOffer,
} from "./initialize-handshake.js";
export { INPUT_KEY_META_KEY, withInputKey } from "./input-key-meta.js";
export type { SchemaInput } from "./input-schema.js";
export type { ModernRequestContext } from "./modern/modern-context.js";
export type { ModernEndpoint, ModernOptions } from "./modern/modern-dispatcher.js";
export { type CachingHints, completeModernResult } from "./modern/modern-result.js";
export { MAX_REQUEST_STATE_LENGTH } from "./modern/request-state.js";
export { SealedJson } from "./modern/sealed-json.js";
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
export type { Registration } from "./registry.js";
export type { RequestHandlerContext } from "./request-handler-context.js";
export type { ResourceConfig, ResourceReader } from "./resource.js";
export type { ResourceTemplateConfig, ResourceTemplateReader } from "./resource-template-entry.js";
export type { ClientRequestOptions, ListKind, ServerSession } from "./server-session.js";
export type { ServerSessionApi } from "./session-api.js";
export { splitUriTemplate, type UriTemplatePieces } from "./split-uri-template.js";
export { declaresTasks, tasksExtensionRequired } from "./tasks/task-wire.js";
export type { ToolConfig, ToolHandler, ToolResult } from "./tool.js";
export {
  MAX_URI_MATCH_LENGTH,
  MAX_URI_TEMPLATE_EXPRESSIONS,
  MAX_URI_TEMPLATE_LENGTH,
  MAX_URI_TEMPLATE_VARIABLES,
  UriTemplate,
  type UriTemplateVariables,
} from "./uri-template.js";

/** The result of `tools/call` (MCP 2025-11-25). */
export type CallToolResult = v2025_11_25.CallToolResult;
/** The result of `prompts/get` (MCP 2025-11-25). */
export type GetPromptResult = v2025_11_25.GetPromptResult;
/** The result of `resources/read` (MCP 2025-11-25). */
export type ReadResourceResult = v2025_11_25.ReadResourceResult;
