import {
  type Connection,
  type ConnectionOptions,
  createConnection,
  InvalidParamsError,
  type JSONRPCId,
  MethodNotFoundError,
  type Transport,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import {
  createMcpConnectionHooks,
  isLoggingLevelEnabled,
  type JSONObject,
  type LoggingLevel,
  type v2025_11_25,
} from "@patchbay/mcp-types";
import { MissingClientCapabilityError } from "./errors/missing-client-capability-error.js";
import { withInputKey } from "./input-key-meta.js";
import {
  isModernConnectionRequest,
  serveModernOnConnection,
} from "./modern/modern-connection-bridge.js";
import type { ModernEndpoint } from "./modern/modern-dispatcher.js";
import {
  createRequestHandlerContext,
  type RequestHandlerContext,
} from "./request-handler-context.js";
import type { ClientRequestOptions, ListKind, ServerSessionApi } from "./session-api.js";
import { installCompletionHandler } from "./session-handlers/completion-handler.js";
import { installLifecycleHandlers } from "./session-handlers/lifecycle-handlers.js";
import { installLoggingHandler } from "./session-handlers/logging-handler.js";
import { installPromptHandlers } from "./session-handlers/prompt-handlers.js";
import { installResourceHandlers } from "./session-handlers/resource-handlers.js";
import { installTaskHandlers } from "./session-handlers/task-handlers.js";
import { installToolHandlers } from "./session-handlers/tool-handlers.js";
import type { SessionHost } from "./session-host.js";
import type { SessionState } from "./session-state.js";

export type { ClientRequestOptions, ListKind } from "./session-api.js";

let sessionCounter = 0;

/**
 * One client's session on a server: created by `server.connect(transport)`, it owns the JSON-RPC
 * connection, the negotiated revision and capabilities, the logging level and the resource
 * subscriptions of that client (MCP "Lifecycle").
 */
export class ServerSession implements ServerSessionApi {
  /** A process-unique id for logs (not the Streamable HTTP session id). */
  readonly id: string;
  /** The JSON-RPC connection to the client. */
  readonly connection: Connection;
  readonly #state: SessionState;
  readonly #host: SessionHost;
  readonly #closed = new AbortController();
  readonly #initializedListeners = new Set<() => void>();
  readonly #rootsListeners = new Set<() => void>();
  readonly #modern: ModernEndpoint | undefined;

  /**
   * Use `server.connect(transport)`; this constructor is internal. With `modern`, requests of the
   * modern era (2026-07-28) that arrive before `initialize` are answered session-less by it.
   */
  constructor(
    host: SessionHost,
    transport: Transport,
    options: ConnectionOptions = {},
    modern?: ModernEndpoint,
  ) {
    sessionCounter += 1;
    this.id = `session-${sessionCounter}`;
    this.#host = host;
    this.#modern = modern;
    this.#state = { phase: "new", subscriptions: new Set() };
    this.connection = createConnection(transport, { ...createMcpConnectionHooks(), ...options });
    this.connection.onClose(() => this.#closed.abort(new Error("Connection closed")));
    if (modern !== undefined) {
      // Modern-only methods (server/discover, subscriptions/listen) have no legacy handler.
      this.connection.setFallbackRequestHandler(async (params, context) => {
        if (!this.#takesModernPath(context.method, params)) {
          throw new MethodNotFoundError(undefined, { method: context.method });
        }
        return await serveModernOnConnection(modern, this.connection, params, context);
      });
    }
    const scope = {
      session: this,
      state: this.#state,
      host,
      connection: this.connection,
      handle: this.#handle.bind(this),
      emitInitialized: () => this.#emit(this.#initializedListeners),
      emitRootsListChanged: () => this.#emit(this.#rootsListeners),
    };
    installLifecycleHandlers(scope);
    installToolHandlers(scope);
    installTaskHandlers(scope);
    installResourceHandlers(scope);
    installPromptHandlers(scope);
    installCompletionHandler(scope);
    installLoggingHandler(scope);
  }

  /** The negotiated protocol revision, once `initialize` has been answered. */
  get protocolVersion(): string | undefined {
    return this.#state.protocolVersion;
  }

  /** The client's `clientInfo`, once initialized. */
  get clientInfo(): v2025_11_25.Implementation | undefined {
    return this.#state.clientInfo;
  }

  /** The capabilities the client declared, once initialized. */
  get clientCapabilities(): v2025_11_25.ClientCapabilities | undefined {
    return this.#state.clientCapabilities;
  }

  /** The capabilities this server declared to the client, once initialized. */
  get serverCapabilities(): v2025_11_25.ServerCapabilities | undefined {
    return this.#state.serverCapabilities;
  }

  /** True once the client has sent `notifications/initialized`. */
  get initialized(): boolean {
    return this.#state.phase === "initialized";
  }

  /** The threshold set by `logging/setLevel`, if the client set one. */
  get logLevel(): LoggingLevel | undefined {
    return this.#state.logLevel;
  }

  /** URIs the client subscribed to with `resources/subscribe`. */
  get subscriptions(): ReadonlySet<string> {
    return this.#state.subscriptions;
  }

  /** True once the connection has closed. */
  get closed(): boolean {
    return this.#closed.signal.aborted;
  }

  /** Starts the connection (called by `server.connect`). */
  async start(): Promise<void> {
    await this.connection.start();
  }

  /** Sends a notification to the client, related to a request of the client's when given. */
  async notify(
    method: string,
    params?: Record<string, unknown>,
    options?: { relatedRequestId?: JSONRPCId },
  ): Promise<void> {
    await this.connection.notify(method, params, options);
  }

  /**
   * Sends `notifications/message` if `level` passes the client's threshold; a closed connection is
   * ignored (a log line is never worth failing a handler).
   */
  async log(
    level: LoggingLevel,
    data: unknown,
    logger?: string,
    options?: { relatedRequestId?: JSONRPCId },
  ): Promise<void> {
    if (!isLoggingLevelEnabled(level, this.#state.logLevel) || this.closed) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    await this.notify("notifications/message", params, options).catch(() => undefined);
  }

  /** Announces a list change, if the client is initialized and was promised `listChanged`. */
  async notifyListChanged(kind: ListKind): Promise<void> {
    if (!this.initialized || this.closed) return;
    if (this.#state.serverCapabilities?.[kind]?.listChanged !== true) return;
    await this.notify(`notifications/${kind}/list_changed`).catch(() => undefined);
  }

  /** Sends `notifications/resources/updated` if the client subscribed to `uri`. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    if (!this.#state.subscriptions.has(uri) || this.closed) return;
    await this.notify("notifications/resources/updated", { uri }).catch(() => undefined);
  }

  /** Sends `sampling/createMessage`; needs the client's `sampling` capability (and `sampling.tools` for tools). */
  async sample(
    params: v2025_11_25.CreateMessageRequestParams,
    options: ClientRequestOptions = {},
  ): Promise<v2025_11_25.CreateMessageResult> {
    this.#require("sampling/createMessage", "sampling");
    if (params.tools !== undefined || params.toolChoice !== undefined) {
      this.#require("sampling/createMessage", "sampling.tools");
    }
    return (await this.connection.request(
      "sampling/createMessage",
      withInputKey(params, options.inputKey),
      options,
    )) as v2025_11_25.CreateMessageResult;
  }

  /** Sends `elicitation/create`; form mode needs `elicitation`, URL mode `elicitation.url`. */
  async elicit(
    params: v2025_11_25.ElicitRequestParams,
    options: ClientRequestOptions = {},
  ): Promise<v2025_11_25.ElicitResult> {
    if (params.mode === "url") this.#require("elicitation/create", "elicitation.url");
    else this.#requireFormElicitation();
    const result = (await this.connection.request(
      "elicitation/create",
      withInputKey(params, options.inputKey),
      options,
    )) as v2025_11_25.ElicitResult;
    // An accepted form answer must match what was asked for before a tool relies on it.
    if (params.mode !== "url" && result.action === "accept" && result.content !== undefined) {
      const compiled = await this.#host.compileJsonSchema(params.requestedSchema as JSONObject);
      const check = compiled(result.content);
      if (!check.valid) {
        throw new InvalidParamsError(
          `The elicitation answer does not match the requested schema: ${check.problem}`,
        );
      }
    }
    return result;
  }

  /** Sends `roots/list`; needs the client's `roots` capability. */
  async listRoots(options: ClientRequestOptions = {}): Promise<v2025_11_25.ListRootsResult> {
    this.#require("roots/list", "roots");
    return (await this.connection.request(
      "roots/list",
      withInputKey({}, options.inputKey),
      options,
    )) as v2025_11_25.ListRootsResult;
  }

  /** Calls `listener` when the client sends `notifications/initialized`. */
  onInitialized(listener: () => void): Unsubscribe {
    return this.#subscribe(this.#initializedListeners, listener);
  }

  /** Calls `listener` when the client sends `notifications/roots/list_changed`. */
  onRootsListChanged(listener: () => void): Unsubscribe {
    return this.#subscribe(this.#rootsListeners, listener);
  }

  /** Calls `listener` once when the connection closes. */
  onClose(listener: () => void): Unsubscribe {
    return this.connection.onClose(() => listener());
  }

  /** Closes the connection (and so the session). */
  async close(): Promise<void> {
    await this.connection.close();
  }

  #handle(
    method: string,
    handler: (params: Record<string, unknown>, context: RequestHandlerContext) => unknown,
    options: { beforeInitialize?: boolean } = {},
  ): void {
    this.connection.handle(method, async (params, requestContext) => {
      if (this.#modern !== undefined && this.#takesModernPath(method, params)) {
        return await serveModernOnConnection(this.#modern, this.connection, params, requestContext);
      }
      if (this.#state.phase === "new" && options.beforeInitialize !== true) {
        this.#host.refuseUninitialized(method);
      }
      // The connection aborts every running handler's signal when it closes, so this signal already
      // covers both cancellation and session close (no per-request AbortSignal.any needed). It is
      // read only if the handler reads its own.
      const record = (typeof params === "object" && params !== null ? params : {}) as Record<
        string,
        unknown
      >;
      const context = createRequestHandlerContext(
        this,
        {
          requestId: requestContext.id as JSONRPCId,
          source: requestContext,
          info: requestContext.info,
        },
        record,
      );
      return await handler(record, context);
    });
  }

  /** A request before `initialize` that names a modern revision goes the session-less way. */
  #takesModernPath(method: string, params: unknown): boolean {
    return (
      this.#state.phase === "new" &&
      method !== "initialize" &&
      isModernConnectionRequest(method, params)
    );
  }

  #require(method: string, capability: string): void {
    let node: unknown = this.#state.clientCapabilities;
    for (const part of capability.split(".")) {
      node =
        typeof node === "object" && node !== null
          ? (node as Record<string, unknown>)[part]
          : undefined;
    }
    if (node === undefined || node === null)
      throw new MissingClientCapabilityError(method, capability);
  }

  #requireFormElicitation(): void {
    const elicitation = this.#state.clientCapabilities?.elicitation;
    if (elicitation === undefined)
      throw new MissingClientCapabilityError("elicitation/create", "elicitation");
    // 2025-11-25: an empty object means form mode; a client listing only `url` cannot do forms.
    if (Object.keys(elicitation).length > 0 && elicitation.form === undefined) {
      throw new MissingClientCapabilityError("elicitation/create", "elicitation.form");
    }
  }

  #subscribe(listeners: Set<() => void>, listener: () => void): Unsubscribe {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  #emit(listeners: Set<() => void>): void {
    for (const listener of [...listeners]) listener();
  }
}
