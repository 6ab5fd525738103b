import {
  type Connection,
  type ConnectionOptions,
  createConnection,
  type JSONRPCNotification,
  type JSONRPCParams,
  type RequestOptions,
  type Transport,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { deriveClientCapabilities } from "./client-capabilities.js";
import {
  ClientEvents,
  type ServerNotificationMap,
  type ServerNotificationMethod,
} from "./client-events.js";
import type { ClientHandlers } from "./client-handlers.js";
import { NotConnectedError } from "./errors/not-connected-error.js";
import { UnsupportedProtocolVersionError } from "./errors/unsupported-protocol-version-error.js";
import { listAllPages, type PageResult } from "./list-all-pages.js";
import type { LoggingLevel } from "./log-level.js";
import { mcpConnectionHooks } from "./mcp-connection-hooks.js";
import type {
  CallToolResult,
  ClientCapabilities,
  Completion,
  GetPromptResult,
  Implementation,
  InitializeResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from "./protocol-types.js";
import {
  LATEST_LEGACY_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./protocol-versions.js";

/** Options of `createClient`. */
export interface ClientOptions extends ClientHandlers {
  /** Capabilities to declare beyond those derived from the handlers (for example `experimental`). */
  capabilities?: ClientCapabilities;
  /** The revision to ask for in `initialize` (default: the newest legacy revision, 2025-11-25). */
  protocolVersion?: string;
  /** Default timeout of every request in milliseconds (default 60 000; `0` for none). */
  requestTimeoutMs?: number;
  /** Further options for the JSON-RPC connection. */
  connection?: ConnectionOptions;
}

/** Options of one request: cancellation, timeout and progress. */
export interface CallOptions {
  /** Aborting sends `notifications/cancelled` and rejects with a `CancelledError`. */
  signal?: AbortSignal;
  /** Milliseconds without a response before a `TimeoutError` (and a cancel notification). */
  timeoutMs?: number;
  /** Restart the timeout on every progress notification... */
  resetTimeoutOnProgress?: boolean;
  /** ...but never wait longer than this in total. */
  maxTotalTimeoutMs?: number;
  /** Receives `notifications/progress` for this request (a `progressToken` is sent for you). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** A page of a list request. */
export interface ListOptions extends CallOptions {
  /** The `nextCursor` of the previous page; omit for the first page. */
  cursor?: string;
}

/** A reference for `completion/complete`. */
export type CompleteReference =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/** Params of `completion/complete`. */
export interface CompleteParams {
  ref: CompleteReference;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** An MCP client session over one transport. */
export interface Client {
  /** The revision agreed in `initialize`, once connected. */
  readonly protocolVersion: string | undefined;
  /** The server's `serverInfo`, once connected. */
  readonly serverInfo: Implementation | undefined;
  /** The server's capabilities, once connected. */
  readonly serverCapabilities: ServerCapabilities | undefined;
  /** The server's `instructions`, if it gave any. */
  readonly instructions: string | undefined;
  /** The capabilities this client declares. */
  readonly capabilities: ClientCapabilities;
  /** The JSON-RPC connection, once `connect` has been called. */
  readonly connection: Connection | undefined;

  /** Runs `initialize` and `notifications/initialized` over the transport. */
  connect(transport: Transport): Promise<InitializeResult>;
  /** Closes the connection; pending requests reject with `ConnectionClosedError`. */
  close(): Promise<void>;
  /** Sends `ping`. */
  ping(options?: CallOptions): Promise<void>;

  /** One page of `tools/list`. */
  listTools(options?: ListOptions): Promise<{ tools: Tool[]; nextCursor?: string }>;
  /** Every tool, following every page. */
  listAllTools(options?: CallOptions): Promise<Tool[]>;
  /** One page of `resources/list`. */
  listResources(options?: ListOptions): Promise<{ resources: Resource[]; nextCursor?: string }>;
  /** Every resource, following every page. */
  listAllResources(options?: CallOptions): Promise<Resource[]>;
  /** One page of `resources/templates/list`. */
  listResourceTemplates(
    options?: ListOptions,
  ): Promise<{ resourceTemplates: ResourceTemplate[]; nextCursor?: string }>;
  /** Every resource template, following every page. */
  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]>;
  /** One page of `prompts/list`. */
  listPrompts(options?: ListOptions): Promise<{ prompts: Prompt[]; nextCursor?: string }>;
  /** Every prompt, following every page. */
  listAllPrompts(options?: CallOptions): Promise<Prompt[]>;

  /** Calls a tool; a tool that failed resolves with `isError: true`, a protocol error rejects. */
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: CallOptions,
  ): Promise<CallToolResult>;
  /** Reads a resource. */
  readResource(params: { uri: string }, options?: CallOptions): Promise<ReadResourceResult>;
  /** Gets a prompt with its arguments filled in. */
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: CallOptions,
  ): Promise<GetPromptResult>;
  /** Asks for completions of a prompt argument or template variable. */
  complete(params: CompleteParams, options?: CallOptions): Promise<{ completion: Completion }>;
  /** Sets the threshold of the server's `notifications/message`. */
  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void>;
  /** Subscribes to `notifications/resources/updated` for `uri`. */
  subscribeResource(uri: string, options?: CallOptions): Promise<void>;
  /** Ends a subscription. */
  unsubscribeResource(uri: string, options?: CallOptions): Promise<void>;
  /** Sends any request (for methods this client has no helper for). */
  request(method: string, params?: JSONRPCParams, options?: CallOptions): Promise<unknown>;
  /** Tells the server the roots changed (needs the `roots` handler). */
  notifyRootsListChanged(): Promise<void>;

  /** Subscribes to one server notification; any number of listeners; returns unsubscribe. */
  on<Method extends ServerNotificationMethod>(
    method: Method,
    listener: (params: ServerNotificationMap[Method]) => void,
  ): Unsubscribe;
  /** Subscribes to any server notification by method name. */
  on(method: string, listener: (params: Record<string, unknown>) => void): Unsubscribe;
  /** Subscribes to every server notification. */
  onNotification(listener: (notification: JSONRPCNotification) => void): Unsubscribe;
  /** Subscribes to the end of the connection. */
  onClose(listener: () => void): Unsubscribe;
}

/** Creates a client that identifies itself as `clientInfo`. */
export function createClient(clientInfo: Implementation, options: ClientOptions = {}): Client {
  const capabilities = deriveClientCapabilities(options, options.capabilities);
  const events = new ClientEvents();
  const closeListeners = new Set<() => void>();
  let connection: Connection | undefined;
  let initializeResult: InitializeResult | undefined;

  const ready = (method: string): Connection => {
    if (connection === undefined || initializeResult === undefined || connection.closed) {
      throw new NotConnectedError(method);
    }
    return connection;
  };
  const requestOptions = (callOptions: CallOptions = {}): RequestOptions => {
    const { onProgress, ...rest } = callOptions;
    const result: RequestOptions = { ...rest };
    if (result.timeoutMs === undefined && options.requestTimeoutMs !== undefined) {
      result.timeoutMs = options.requestTimeoutMs;
    }
    if (onProgress !== undefined) {
      result.onProgress = (params) => onProgress(params as Parameters<typeof onProgress>[0]);
    }
    return result;
  };
  const send = async (method: string, params?: JSONRPCParams, callOptions?: CallOptions) =>
    await ready(method).request(method, params, requestOptions(callOptions));
  const page = (method: string, listOptions: ListOptions = {}) => {
    const { cursor, ...rest } = listOptions;
    return send(method, cursor === undefined ? {} : { cursor }, rest) as Promise<PageResult>;
  };
  const all = <Item>(method: string, key: string, callOptions?: CallOptions) =>
    listAllPages<Item>(key, (cursor) =>
      page(method, cursor === undefined ? { ...callOptions } : { ...callOptions, cursor }),
    );

  const installHandlers = (target: Connection) => {
    const { sampling, elicitation, roots } = options;
    if (sampling !== undefined) {
      target.handle("sampling/createMessage", (params, context) =>
        sampling(params as never, { signal: context.signal }),
      );
    }
    if (elicitation !== undefined) {
      target.handle("elicitation/create", (params, context) =>
        elicitation(params as never, { signal: context.signal }),
      );
    }
    if (roots !== undefined)
      target.handle("roots/list", (_params, context) => roots({ signal: context.signal }));
    target.handle("ping", () => ({}));
  };

  const client: Client = {
    get protocolVersion() {
      return initializeResult?.protocolVersion;
    },
    get serverInfo() {
      return initializeResult?.serverInfo;
    },
    get serverCapabilities() {
      return initializeResult?.capabilities;
    },
    get instructions() {
      return initializeResult?.instructions;
    },
    capabilities,
    get connection() {
      return connection;
    },

    async connect(transport) {
      if (connection !== undefined)
        throw new Error("This client is already connected; create another");
      const target = createConnection(transport, {
        ...mcpConnectionHooks,
        ...(options.requestTimeoutMs === undefined
          ? {}
          : { defaultTimeoutMs: options.requestTimeoutMs }),
        ...options.connection,
      });
      connection = target;
      installHandlers(target);
      events.attach(target);
      target.onClose(() => {
        for (const listener of [...closeListeners]) listener();
      });
      await target.start();
      const result = (await target.request("initialize", {
        protocolVersion: options.protocolVersion ?? LATEST_LEGACY_PROTOCOL_VERSION,
        capabilities,
        clientInfo,
      })) as InitializeResult;
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
        await target.close();
        throw new UnsupportedProtocolVersionError(
          result.protocolVersion,
          SUPPORTED_PROTOCOL_VERSIONS,
        );
      }
      initializeResult = result;
      await target.notify("notifications/initialized");
      return result;
    },
    async close() {
      await connection?.close();
    },
    async ping(callOptions) {
      await send("ping", undefined, callOptions);
    },

    listTools: (listOptions) => page("tools/list", listOptions) as never,
    listAllTools: (callOptions) => all<Tool>("tools/list", "tools", callOptions),
    listResources: (listOptions) => page("resources/list", listOptions) as never,
    listAllResources: (callOptions) => all<Resource>("resources/list", "resources", callOptions),
    listResourceTemplates: (listOptions) => page("resources/templates/list", listOptions) as never,
    listAllResourceTemplates: (callOptions) =>
      all<ResourceTemplate>("resources/templates/list", "resourceTemplates", callOptions),
    listPrompts: (listOptions) => page("prompts/list", listOptions) as never,
    listAllPrompts: (callOptions) => all<Prompt>("prompts/list", "prompts", callOptions),

    callTool: (params, callOptions) =>
      send("tools/call", params, callOptions) as Promise<CallToolResult>,
    readResource: (params, callOptions) =>
      send("resources/read", params, callOptions) as Promise<ReadResourceResult>,
    getPrompt: (params, callOptions) =>
      send("prompts/get", params, callOptions) as Promise<GetPromptResult>,
    complete: (params, callOptions) =>
      send("completion/complete", params as unknown as JSONRPCParams, callOptions) as Promise<{
        completion: Completion;
      }>,
    async setLoggingLevel(level, callOptions) {
      await send("logging/setLevel", { level }, callOptions);
    },
    async subscribeResource(uri, callOptions) {
      await send("resources/subscribe", { uri }, callOptions);
    },
    async unsubscribeResource(uri, callOptions) {
      await send("resources/unsubscribe", { uri }, callOptions);
    },
    request: (method, params, callOptions) => send(method, params, callOptions),
    async notifyRootsListChanged() {
      if (options.roots === undefined) {
        throw new Error("notifyRootsListChanged needs the roots handler (the roots capability)");
      }
      await ready("notifications/roots/list_changed").notify("notifications/roots/list_changed");
    },

    on: ((method: string, listener: (params: Record<string, unknown>) => void) =>
      events.on(method, listener)) as Client["on"],
    onNotification: (listener) => events.onAny(listener),
    onClose(listener) {
      closeListeners.add(listener);
      return () => {
        closeListeners.delete(listener);
      };
    },
  };
  return client;
}
