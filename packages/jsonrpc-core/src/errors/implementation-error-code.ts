/**
 * The wire error codes the JSON-RPC layer and the transports emit themselves, in the range
 * JSON-RPC 2.0 (section 5.1) leaves to implementations and MCP narrows to -32000..-32019
 * (2026-07-28 error-code allocation). They are defined here because the transports may import
 * nothing above this package; `@patchbay/mcp-types` lists them in the one table of every code
 * Patchbay emits (`ERROR_TABLE`), beside the gateway's own.
 */
export const ImplementationErrorCode = {
  /** The connection already has `maxQueuedHandlers` requests waiting for a handler; retry later. */
  ServerBusy: -32010,
  /** An answer passed a configured byte limit and was replaced by this error. */
  ResponseTooLarge: -32012,
  /** The HTTP session named by the request is unknown, ended, or another identity's (HTTP 404). */
  SessionNotFound: -32013,
  /** An HTTP request (or WebSocket upgrade) refused before it reached a session; its status says why. */
  HttpRequestRefused: -32014,
} as const;

/** One of the codes in {@link ImplementationErrorCode}. */
export type ImplementationErrorCode =
  (typeof ImplementationErrorCode)[keyof typeof ImplementationErrorCode];

/** The code of a request refused because its connection's handler queue is full (a retry may pass). */
export const SERVER_BUSY_ERROR_CODE = ImplementationErrorCode.ServerBusy;
