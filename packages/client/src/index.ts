import type { v2025_11_25 } from "@patchbay/mcp-types";

// Protocol types come from @patchbay/mcp-types (revision 2025-11-25, the newest one with the
// initialize handshake this package speaks); the ones client methods return are re-exported for
// convenience. They are inferred from loose zod schemas, so each object type has an index
// signature: unknown fields a server sends are kept, and a misspelt optional field is not a type error.
export {
  isLoggingLevel,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  type LoggingLevel,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@patchbay/mcp-types";
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
export { DEFAULT_DISCOVER_TIMEOUT_MS } from "./era-probe.js";
export { InputRequiredRoundsExceededError } from "./errors/input-required-rounds-exceeded-error.js";
export { InvalidToolOutputError } from "./errors/invalid-tool-output-error.js";
export { NotConnectedError } from "./errors/not-connected-error.js";
export { UnsupportedInputRequestError } from "./errors/unsupported-input-request-error.js";
export { UnsupportedProtocolVersionError } from "./errors/unsupported-protocol-version-error.js";
export {
  DEFAULT_MAX_INPUT_ROUNDS,
  MAX_CLIENT_REQUEST_STATE_LENGTH,
  MAX_INPUT_REQUESTS_PER_ROUND,
} from "./input-rounds.js";
export { MAX_REMEMBERED_OUTPUT_SCHEMAS } from "./json-schema-checks.js";
export type { Subscription, SubscriptionFilter } from "./modern-listen.js";
export { MAX_MODERN_RESOURCE_SUBSCRIPTIONS } from "./modern-resource-subscriptions.js";
export type { EraCache, EraStore, ProtocolEraOption } from "./protocol-era.js";

/** The result of `tools/call` (MCP 2025-11-25). */
export type CallToolResult = v2025_11_25.CallToolResult;
/** The result of `completion/complete` (MCP 2025-11-25). */
export type CompleteResult = v2025_11_25.CompleteResult;
/** The result of `prompts/get` (MCP 2025-11-25). */
export type GetPromptResult = v2025_11_25.GetPromptResult;
/** Name and version of a client or server (`clientInfo`, `serverInfo`; MCP 2025-11-25). */
export type Implementation = v2025_11_25.Implementation;
/** The result of `initialize` (MCP 2025-11-25). */
export type InitializeResult = v2025_11_25.InitializeResult;
/** A prompt as `prompts/list` describes it (MCP 2025-11-25). */
export type Prompt = v2025_11_25.Prompt;
/** The result of `resources/read` (MCP 2025-11-25). */
export type ReadResourceResult = v2025_11_25.ReadResourceResult;
/** A resource as `resources/list` describes it (MCP 2025-11-25). */
export type Resource = v2025_11_25.Resource;
/** A resource template as `resources/templates/list` describes it (MCP 2025-11-25). */
export type ResourceTemplate = v2025_11_25.ResourceTemplate;
/** What a server can do, as its `initialize` result declares (MCP 2025-11-25). */
export type ServerCapabilities = v2025_11_25.ServerCapabilities;
/** A tool as `tools/list` describes it (MCP 2025-11-25). */
export type Tool = v2025_11_25.Tool;
export { OAuthError } from "./errors/oauth-error.js";
export { type BearerChallenge, parseBearerChallenge } from "./oauth/bearer-challenge.js";
export {
  createOAuthClient,
  type OAuthClient,
  type OAuthClientOptions,
} from "./oauth/create-oauth-client.js";
export type { OAuthFetch } from "./oauth/discovery.js";
export {
  createMemoryTokenStore,
  type OAuthClientRegistration,
  type OAuthTokenStore,
  type OAuthTokens,
  type TokenEndpointAuthMethod,
} from "./oauth/token-store.js";
