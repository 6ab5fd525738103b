import {
  ErrorCode,
  type FrameInfo,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "@patchbay/jsonrpc-core";
import { MCP_PROTOCOL_VERSION_HEADER } from "./constants.js";
import { decodeBase64Utf8, type HasHttpHeaders, headerValue } from "./http-io.js";

/** The JSON-RPC method of a modern request (MCP 2026-07-28 Streamable HTTP). */
export const MCP_METHOD_HEADER = "mcp-method";
/** `params.name` / `params.uri` of `tools/call`, `prompts/get`, `resources/read` (2026-07-28). */
export const MCP_NAME_HEADER = "mcp-name";

/** What the modern path hands its handler with each message. */
export interface ModernMessageContext {
  /** Aborted when the client closes the response stream (2026-07-28: that is cancellation). */
  readonly signal: AbortSignal;
  /** The HTTP request facts (`extra.requestInfo.headers`, `extra.authInfo`). */
  readonly info: FrameInfo;
  /** Sends a notification related to the request on its response stream (SSE). */
  notify(method: string, params: Record<string, unknown>): void;
}

/**
 * The session-less modern (2026-07-28) request path of a server, as `@patchbay/server`'s
 * `server.modern` provides it: one message in, its response out.
 */
export interface ModernMessageHandler {
  /** The modern revisions it serves; a POST naming another non-legacy revision still reaches it. */
  readonly protocolVersions: readonly string[];
  /** Answers a request; returns undefined for a notification. */
  handle(
    message: JSONRPCRequest | JSONRPCNotification,
    context: ModernMessageContext,
  ): Promise<JSONRPCResponse | undefined>;
}

/** Methods of the extension `io.modelcontextprotocol/tasks` whose `Mcp-Name` is the task id. */
const TASK_ID_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** The `Mcp-Name` a modern request must carry: the tool/prompt name, resource URI or task id. */
export function expectedMcpName(message: JSONRPCRequest | JSONRPCNotification): string | undefined {
  const params = (message.params ?? {}) as Record<string, unknown>;
  if (message.method === "tools/call" || message.method === "prompts/get") {
    return typeof params.name === "string" ? params.name : undefined;
  }
  if (message.method === "resources/read") {
    return typeof params.uri === "string" ? params.uri : undefined;
  }
  if (TASK_ID_METHODS.has(message.method)) {
    return typeof params.taskId === "string" ? params.taskId : undefined;
  }
  return undefined;
}

/** A header value as sent: plain, or `=?base64?…?=` for values that are not safe ASCII (2026-07-28). */
export function decodeHeaderValue(value: string): string {
  const match = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/i.exec(value);
  return match?.[1] === undefined ? value : decodeBase64Utf8(match[1]);
}

/**
 * The -32020 problem of a modern request's headers, or undefined: `Mcp-Method` must equal the
 * body's method, `Mcp-Name` the name/URI it targets, `MCP-Protocol-Version` the `_meta` version.
 */
export function headerMismatch(
  request: HasHttpHeaders,
  message: JSONRPCRequest | JSONRPCNotification,
): string | undefined {
  const method = headerValue(request, MCP_METHOD_HEADER);
  if (method === undefined) return "the Mcp-Method header is required";
  if (decodeHeaderValue(method) !== message.method) {
    return `the Mcp-Method header (${method}) does not match the body's method (${message.method})`;
  }
  const name = expectedMcpName(message);
  const nameHeader = headerValue(request, MCP_NAME_HEADER);
  if (name !== undefined && (nameHeader === undefined || decodeHeaderValue(nameHeader) !== name)) {
    return nameHeader === undefined
      ? `the Mcp-Name header is required for ${message.method}`
      : `the Mcp-Name header does not match the body's ${message.method} target`;
  }
  const meta = ((message.params ?? {}) as { _meta?: Record<string, unknown> })._meta;
  const bodyVersion = meta?.["io.modelcontextprotocol/protocolVersion"];
  const headerVersion = headerValue(request, MCP_PROTOCOL_VERSION_HEADER);
  if (typeof bodyVersion === "string" && headerVersion !== bodyVersion) {
    return `the MCP-Protocol-Version header (${headerVersion}) does not match _meta (${bodyVersion})`;
  }
  return undefined;
}

/** The HTTP status of a modern error response (MCP 2026-07-28 Streamable HTTP). */
export function modernErrorStatus(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  return BAD_REQUEST_CODES.has(code) ? 400 : 200;
}

/** Parse error, invalid request, invalid params, -32020 header mismatch, -32021, -32022. */
const BAD_REQUEST_CODES = new Set<number>([
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.InvalidParams,
  -32020,
  -32021,
  -32022,
]);
