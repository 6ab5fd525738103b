import { ImplementationErrorCode, ErrorCode as JsonRpcErrorCode } from "@patchbay/jsonrpc-core";
import { MCP_ERROR_CODES } from "./error-codes.js";

/**
 * The codes of errors Patchbay itself makes, in the range MCP leaves to implementations
 * (-32000..-32019, 2026-07-28 error-code allocation); -32002 is never used (it meant "resource not
 * found" until 2025-11-25). The JSON-RPC layer's and the transports' codes come from
 * `@patchbay/jsonrpc-core` (those packages may import nothing above it); the rest are defined here.
 * -32000 and -32001 keep the meaning SDK v1 gives them (connection closed, request timeout).
 */
export const PatchbayErrorCode = {
  /** The connection a request travelled on closed before it was answered. */
  ConnectionClosed: -32000,
  /** The request was not answered in time (a backend's `timeoutMs`, or `requestTimeoutMs`). */
  RequestTimeout: -32001,
  /** The backend is not running: starting, restarting, failed or stopped. */
  BackendUnavailable: -32003,
  /** The request could not be delivered to the backend (transport failure). */
  BackendTransportFailed: -32004,
  /** The request needs a capability the other side did not declare, so it cannot cross. */
  CapabilityNotSupported: -32005,
  /** The gateway is shutting down and takes no new requests. */
  GatewayShuttingDown: -32006,
  /** The backend's response was over the backend's `maxMessageBytes`; it was dropped. */
  BackendResponseTooLarge: -32007,
  /** A backend's request to a client names no call the gateway can trace, and several could. */
  RelayTargetUnknown: -32008,
  /** A modern client's retry names a held call that has ended (deadline, cancel, restart). */
  HeldCallEnded: -32009,
  /** A modern client has `maxHeldCalls` calls waiting for its input already. */
  TooManyHeldCalls: -32011,
  /** The principal or the address passed its rate limit (HTTP 429 with `Retry-After`). */
  RateLimited: -32015,
  /** A clustered session could not be saved to, or read from, the shared store. */
  SharedStoreUnavailable: -32016,
  /** The replica holding a call was lost before the call was answered. */
  ReplicaLost: -32017,
  /** The gateway failed in a way no other code describes. */
  GatewayInternalError: -32019,
  ...ImplementationErrorCode,
} as const;

/** One of Patchbay's own codes. */
export type PatchbayErrorCode = (typeof PatchbayErrorCode)[keyof typeof PatchbayErrorCode];

/** Who assigns a code: JSON-RPC 2.0, the MCP specification, or Patchbay (implementation-defined). */
export type ErrorCodeOrigin = "json-rpc" | "mcp" | "patchbay";

/** One row of {@link ERROR_TABLE}. */
export interface ErrorTableEntry {
  /** The numeric wire code. */
  readonly code: number;
  /** Its name, the key in `ErrorCode` (JSON-RPC, MCP) or `PatchbayErrorCode`. */
  readonly name: string;
  /** Who assigns it. */
  readonly origin: ErrorCodeOrigin;
  /** What it means, in one line. */
  readonly meaning: string;
  /** Which part of Patchbay sends it, and when. */
  readonly when: string;
}

const row = (
  origin: ErrorCodeOrigin,
  name: string,
  code: number,
  meaning: string,
  when: string,
): ErrorTableEntry => ({ code, name, origin, meaning, when });

/**
 * Every wire error code Patchbay emits, each once, with its meaning and its emitter; documented in
 * the repository README's "Errors" section. A backend's own error passes through the gateway with
 * its own code and is not listed. A test pins that no two rows share a code or a name and that
 * Patchbay's rows stay in -32000..-32019.
 */
export const ERROR_TABLE: readonly ErrorTableEntry[] = [
  row("json-rpc", "ParseError", JsonRpcErrorCode.ParseError, "the text is not JSON", "any decoder"),
  row(
    "json-rpc",
    "InvalidRequest",
    JsonRpcErrorCode.InvalidRequest,
    "the JSON is not a valid JSON-RPC request (or a request came before `initialize`)",
    "Connection, server, router",
  ),
  row(
    "json-rpc",
    "MethodNotFound",
    JsonRpcErrorCode.MethodNotFound,
    "no handler for the method (HTTP 404 on a modern POST)",
    "Connection, server, router",
  ),
  row(
    "json-rpc",
    "InvalidParams",
    JsonRpcErrorCode.InvalidParams,
    "params fail the method's schema; unknown tool or prompt; resource not found (2026-07-28)",
    "server, router",
  ),
  row(
    "json-rpc",
    "InternalError",
    JsonRpcErrorCode.InternalError,
    "a handler threw something that is not a wire error",
    "Connection, server",
  ),
  row(
    "mcp",
    "ResourceNotFound",
    MCP_ERROR_CODES.ResourceNotFound,
    "`resources/read` of a URI nothing serves (2024-11-05..2025-11-25 only)",
    "server; the router turns a backend's into -32602 for modern clients",
  ),
  row(
    "mcp",
    "HeaderMismatch",
    MCP_ERROR_CODES.HeaderMismatch,
    "`Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers missing or not matching the body (HTTP 400)",
    "Streamable HTTP, modern POSTs",
  ),
  row(
    "mcp",
    "MissingRequiredClientCapability",
    MCP_ERROR_CODES.MissingRequiredClientCapability,
    "the request needs a client capability its `_meta` did not declare (HTTP 400)",
    "server, router (held calls)",
  ),
  row(
    "mcp",
    "UnsupportedProtocolVersion",
    MCP_ERROR_CODES.UnsupportedProtocolVersion,
    "the protocol version is not served (`data.supported`, `data.requested`; HTTP 400)",
    "server, router",
  ),
  row(
    "mcp",
    "UrlElicitationRequired",
    MCP_ERROR_CODES.UrlElicitationRequired,
    "the request needs a URL-mode elicitation first (`data.elicitations`; 2025-11-25 only)",
    "server; passed through from backends",
  ),
  row(
    "patchbay",
    "ConnectionClosed",
    PatchbayErrorCode.ConnectionClosed,
    "the connection a request travelled on closed before it was answered",
    "router (a backend crashed or exited), http-gateway (the session ended)",
  ),
  row(
    "patchbay",
    "RequestTimeout",
    PatchbayErrorCode.RequestTimeout,
    "the request was not answered in time; the backend gets `notifications/cancelled`",
    "router (`timeoutMs`, `maxTimeoutMs`), http-gateway (`limits.requestTimeoutMs`)",
  ),
  row(
    "patchbay",
    "BackendUnavailable",
    PatchbayErrorCode.BackendUnavailable,
    "the backend is not running (starting, restarting, failed or stopped)",
    "router",
  ),
  row(
    "patchbay",
    "BackendTransportFailed",
    PatchbayErrorCode.BackendTransportFailed,
    "the request could not be delivered to the backend",
    "router",
  ),
  row(
    "patchbay",
    "CapabilityNotSupported",
    PatchbayErrorCode.CapabilityNotSupported,
    "the request needs a capability the receiving side did not declare",
    "router (sampling, elicitation, roots toward a client without it)",
  ),
  row(
    "patchbay",
    "GatewayShuttingDown",
    PatchbayErrorCode.GatewayShuttingDown,
    "the gateway is shutting down",
    "router",
  ),
  row(
    "patchbay",
    "BackendResponseTooLarge",
    PatchbayErrorCode.BackendResponseTooLarge,
    "the backend's response was over its `maxMessageBytes` and was dropped",
    "router",
  ),
  row(
    "patchbay",
    "RelayTargetUnknown",
    PatchbayErrorCode.RelayTargetUnknown,
    "the gateway cannot tell which client a backend's request (sampling, elicitation, roots) is for",
    "router, answering the backend",
  ),
  row(
    "patchbay",
    "HeldCallEnded",
    PatchbayErrorCode.HeldCallEnded,
    "a modern retry names a held call that has ended (deadline passed, cancelled, or restarted)",
    "router, http-gateway",
  ),
  row(
    "patchbay",
    "ServerBusy",
    PatchbayErrorCode.ServerBusy,
    "the connection has `maxQueuedHandlers` requests waiting already; retry later",
    "Connection (jsonrpc-core)",
  ),
  row(
    "patchbay",
    "TooManyHeldCalls",
    PatchbayErrorCode.TooManyHeldCalls,
    "a modern client has `maxHeldCalls` calls waiting for its input already",
    "router",
  ),
  row(
    "patchbay",
    "ResponseTooLarge",
    PatchbayErrorCode.ResponseTooLarge,
    "an answer passed a configured byte limit and was replaced by this error, which names the limit",
    "transport-http (`maxResponseBytes` per POST), http-gateway (`limits.maxResultBytes`)",
  ),
  row(
    "patchbay",
    "SessionNotFound",
    PatchbayErrorCode.SessionNotFound,
    "the HTTP session is unknown, ended, or another identity's (HTTP 404)",
    "transport-http, transport-sse, http-gateway",
  ),
  row(
    "patchbay",
    "HttpRequestRefused",
    PatchbayErrorCode.HttpRequestRefused,
    "an HTTP request or WebSocket upgrade refused before any session; the HTTP status says why",
    "transport-http, transport-sse, transport-ws, http-gateway, dashboard (400-415, 503)",
  ),
  row(
    "patchbay",
    "RateLimited",
    PatchbayErrorCode.RateLimited,
    "the principal or the address passed its rate limit (HTTP 429 with `Retry-After`)",
    "http-gateway",
  ),
  row(
    "patchbay",
    "SharedStoreUnavailable",
    PatchbayErrorCode.SharedStoreUnavailable,
    "a clustered session could not be saved to the shared store, so `initialize` failed",
    "http-gateway (cluster)",
  ),
  row(
    "patchbay",
    "ReplicaLost",
    PatchbayErrorCode.ReplicaLost,
    "the replica holding a call was lost before the call was answered",
    "http-gateway (cluster), to a client resuming that call's stream",
  ),
  row(
    "patchbay",
    "GatewayInternalError",
    PatchbayErrorCode.GatewayInternalError,
    "an unexpected failure inside the gateway",
    "router",
  ),
];
