/*
 * The MCP side of jsonrpc-core's protocol hooks: cancellation is `notifications/cancelled`
 * (`params.requestId`), progress is `_meta.progressToken` on the request and
 * `notifications/progress` (`params.progressToken`). The shapes are those of every revision.
 * Structural types, so this package needs no runtime dependency on jsonrpc-core.
 */

type Id = string | number;
type Params = { readonly [key: string]: unknown } | readonly unknown[];

/** The JSON-RPC notification shape the hooks read and build. */
export interface HookNotification {
  /** Always "2.0". */
  jsonrpc: "2.0";
  /** The method name. */
  method: string;
  /** The params, when present. */
  params?: Params;
}

/** jsonrpc-core `CancellationHooks` for MCP. */
export interface McpCancellationHooks {
  /** Builds `notifications/cancelled` for an aborted outgoing request. */
  createNotification(id: Id, reason?: string): HookNotification;
  /** The request id an incoming `notifications/cancelled` names, else undefined. */
  readRequestId(notification: HookNotification): Id | undefined;
}

/** jsonrpc-core `ProgressHooks` for MCP. */
export interface McpProgressHooks {
  /** Returns the params with `_meta.progressToken` set (other `_meta` keys kept; input untouched). */
  attachToken(params: Params | undefined, token: Id): Params;
  /** The token of an incoming `notifications/progress`, else undefined. */
  readToken(notification: HookNotification): Id | undefined;
}

/** The `{ cancellation, progress }` options of jsonrpc-core's `createConnection` for MCP. */
export interface McpConnectionHooks {
  /** Cancellation through `notifications/cancelled`. */
  readonly cancellation: McpCancellationHooks;
  /** Progress through `_meta.progressToken` and `notifications/progress`. */
  readonly progress: McpProgressHooks;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readId(notification: HookNotification, method: string, key: string): Id | undefined {
  if (notification.method !== method || !isRecord(notification.params)) return undefined;
  const value = notification.params[key];
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

// Stateless: one object serves every connection.
const MCP_CONNECTION_HOOKS = Object.freeze<McpConnectionHooks>({
  cancellation: Object.freeze<McpCancellationHooks>({
    createNotification(id, reason) {
      return {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: reason === undefined ? { requestId: id } : { requestId: id, reason },
      };
    },
    readRequestId: (notification) => readId(notification, "notifications/cancelled", "requestId"),
  }),
  progress: Object.freeze<McpProgressHooks>({
    attachToken(params, token) {
      // MCP params are always objects; positional params cannot carry `_meta`.
      if (Array.isArray(params)) return params;
      const base = (params ?? {}) as Record<string, unknown>;
      const meta = isRecord(base._meta) ? base._meta : {};
      return { ...base, _meta: { ...meta, progressToken: token } };
    },
    readToken: (notification) => readId(notification, "notifications/progress", "progressToken"),
  }),
});

/**
 * The MCP hooks for jsonrpc-core: `createConnection(transport, { ...createMcpConnectionHooks() })`
 * makes an aborted request send `notifications/cancelled`, an incoming one abort the handler, and
 * `onProgress` receive the request's `notifications/progress`. The hooks hold no state: every call
 * returns the same frozen object, so a connection (a session) holds none of its own.
 */
export function createMcpConnectionHooks(): McpConnectionHooks {
  return MCP_CONNECTION_HOOKS;
}
