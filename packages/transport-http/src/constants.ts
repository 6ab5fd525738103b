/** The session header of Streamable HTTP (MCP 2025-03-26+); header names are case-insensitive. */
export const MCP_SESSION_ID_HEADER = "mcp-session-id";

/** The negotiated-revision header that clients send after initialize (MCP 2025-06-18+). */
export const MCP_PROTOCOL_VERSION_HEADER = "mcp-protocol-version";

/** The header a client sends to resume an SSE stream after the last event it saw. */
export const LAST_EVENT_ID_HEADER = "last-event-id";

/**
 * The revision a server assumes when a request carries no `MCP-Protocol-Version` header
 * (MCP 2025-06-18, transports: "the server SHOULD assume protocol version 2025-03-26").
 */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = "2025-03-26";

/**
 * The revisions whose Streamable HTTP shape this package speaks, newest first: the list of
 * `@patchbay/mcp-types` (`SUPPORTED_PROTOCOL_VERSIONS`), spelled out here so that this package
 * needs no runtime dependency beyond jsonrpc-core; `constants.test.ts` keeps the two equal.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** The default request-body limit of the server handlers: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The default interval between SSE keep-alive comment lines: 15 seconds. */
export const DEFAULT_KEEP_ALIVE_INTERVAL_MS = 15_000;

/** The default `retry:` advice sent to SSE clients: 1 second. */
export const DEFAULT_RETRY_INTERVAL_MS = 1_000;

/** The default idle time after which a stateful session ends: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;

/** The default time a session may wait, after initialize, for its client's next request: 30 seconds. */
export const DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS = 30_000;

/** The default most messages in one POSTed JSON-RPC batch: 100. */
export const DEFAULT_MAX_BATCH_SIZE = 100;

/** The default most bytes of responses that answer one POST: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The default most bytes waiting on one SSE stream for a client that does not read: 4 MiB. */
export const DEFAULT_MAX_SSE_BUFFER_BYTES = 4 * 1024 * 1024;
