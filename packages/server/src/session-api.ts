import type { Connection, JSONRPCId, Unsubscribe } from "@patchbay/jsonrpc-core";
import type { LoggingLevel, v2025_11_25 } from "@patchbay/mcp-types";

/** Options of a server-to-client request (`sampling/createMessage`, `elicitation/create`, `roots/list`). */
export interface ClientRequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects with a `CancelledError`. */
  signal?: AbortSignal;
  /** Gives up (and cancels) after this long; the connection's default applies otherwise. */
  timeoutMs?: number;
  /** Receives `notifications/progress` params for this request. */
  onProgress?: (params: unknown) => void;
  /** Restart the timeout on every progress notification. */
  resetTimeoutOnProgress?: boolean;
  /** Hard limit that progress cannot extend. */
  maxTotalTimeoutMs?: number;
  /** The client request this one is made for (handler contexts set it), so it travels with it. */
  relatedRequestId?: JSONRPCId;
  /**
   * Modern (2026-07-28) requests: the key of this input request in the `input_required` result
   * (default `<kind>-<n>`, numbered in call order). On legacy sessions it travels in
   * `_meta["io.patchbay/input-key"]` of the request, so a gateway bridging to a modern client keeps it.
   */
  inputKey?: string;
}

/** A kind of list whose changes are announced with `notifications/<kind>/list_changed`. */
export type ListKind = "tools" | "resources" | "prompts";

/**
 * One client's session as handlers and hooks see it. `ServerSession` implements it; the handler
 * modules depend on this interface, not on the class, so the session module and its handlers do
 * not import each other.
 */
export interface ServerSessionApi {
  /** A process-unique id for logs (not the Streamable HTTP session id). */
  readonly id: string;
  /** The JSON-RPC connection to the client. */
  readonly connection: Connection;
  /** The negotiated protocol revision, once `initialize` has been answered. */
  readonly protocolVersion: string | undefined;
  /** The client's `clientInfo`, once initialized. */
  readonly clientInfo: v2025_11_25.Implementation | undefined;
  /** The capabilities the client declared, once initialized. */
  readonly clientCapabilities: v2025_11_25.ClientCapabilities | undefined;
  /** The capabilities this server declared to the client, once initialized. */
  readonly serverCapabilities: v2025_11_25.ServerCapabilities | undefined;
  /** True once the client has sent `notifications/initialized`. */
  readonly initialized: boolean;
  /** The threshold set by `logging/setLevel`, if the client set one. */
  readonly logLevel: LoggingLevel | undefined;
  /** URIs the client subscribed to with `resources/subscribe`. */
  readonly subscriptions: ReadonlySet<string>;
  /** True once the connection has closed. */
  readonly closed: boolean;
  /** Starts the connection (called by `server.connect`). */
  start(): Promise<void>;
  /** Sends a notification to the client, related to a request of the client's when given. */
  notify(
    method: string,
    params?: Record<string, unknown>,
    options?: { relatedRequestId?: JSONRPCId },
  ): Promise<void>;
  /** Sends `notifications/message` if `level` passes the client's threshold. */
  log(
    level: LoggingLevel,
    data: unknown,
    logger?: string,
    options?: { relatedRequestId?: JSONRPCId },
  ): Promise<void>;
  /** Announces a list change, if the client is initialized and was promised `listChanged`. */
  notifyListChanged(kind: ListKind): Promise<void>;
  /** Sends `notifications/resources/updated` if the client subscribed to `uri`. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Sends `sampling/createMessage`; needs the client's `sampling` capability. */
  sample(
    params: v2025_11_25.CreateMessageRequestParams,
    options?: ClientRequestOptions,
  ): Promise<v2025_11_25.CreateMessageResult>;
  /** Sends `elicitation/create`; form mode needs `elicitation`, URL mode `elicitation.url`. */
  elicit(
    params: v2025_11_25.ElicitRequestParams,
    options?: ClientRequestOptions,
  ): Promise<v2025_11_25.ElicitResult>;
  /** Sends `roots/list`; needs the client's `roots` capability. */
  listRoots(options?: ClientRequestOptions): Promise<v2025_11_25.ListRootsResult>;
  /** Calls `listener` when the client sends `notifications/initialized`. */
  onInitialized(listener: () => void): Unsubscribe;
  /** Calls `listener` when the client sends `notifications/roots/list_changed`. */
  onRootsListChanged(listener: () => void): Unsubscribe;
  /** Calls `listener` once when the connection closes. */
  onClose(listener: () => void): Unsubscribe;
  /** Closes the connection (and so the session). */
  close(): Promise<void>;
}
