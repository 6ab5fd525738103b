import type {
  Connection,
  ConnectionOptions,
  JSONRPCId,
  JSONRPCNotification,
  JSONRPCParams,
  Transport,
  Unsubscribe,
} from "@patchbay/jsonrpc-core";
import type {
  JsonSchemaValidator,
  LoggingLevel,
  ProtocolEra,
  v2025_11_25,
} from "@patchbay/mcp-types";
import type { ServerNotificationMap, ServerNotificationMethod } from "./client-events.js";
import type { ClientHandlers } from "./client-handlers.js";
import type { Subscription, SubscriptionFilter } from "./modern-listen.js";
import type { EraCache, ProtocolEraOption } from "./protocol-era.js";

/** Options of `createClient`. */
export interface ClientOptions extends ClientHandlers {
  /** Capabilities to declare beyond those derived from the handlers (for example `experimental`). */
  capabilities?: v2025_11_25.ClientCapabilities;
  /** The revision to ask for in `initialize` (default: the newest legacy revision, 2025-11-25). */
  protocolVersion?: string;
  /**
   * The era to speak (default `"legacy"`): `"modern"` speaks 2026-07-28 only; `"auto"` probes with
   * `server/discover` and falls back to `initialize` when the answer shows a legacy server.
   */
  protocolEra?: ProtocolEraOption;
  /** Modern revisions this client offers (default: every modern revision it knows, 2026-07-28). */
  protocolVersions?: readonly string[];
  /** Where `"auto"` keeps its verdict per server, so later connections skip the probe. */
  eraCache?: EraCache;
  /** How long `"auto"` waits for the `server/discover` answer before deciding "legacy" (10 000). */
  discoverTimeoutMs?: number;
  /** Retries of one request for `input_required` results before giving up (default 10). */
  maxInputRounds?: number;
  /** Default timeout of every request in milliseconds (default 60 000; `0` for none). */
  requestTimeoutMs?: number;
  /** Further options for the JSON-RPC connection. */
  connection?: ConnectionOptions;
  /**
   * Checks `structuredContent` against the `outputSchema` of tools listed before, and accepted
   * elicitation answers against the requested schema (default: ajv, loaded on first use;
   * `createCfWorkerValidator` from `@patchbay/mcp-types` on edge runtimes).
   */
  jsonSchemaValidator?: JsonSchemaValidator;
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
  /** Called with the id of each request sent (modern `input_required` retries get new ids). */
  onRequestId?: (id: JSONRPCId) => void;
  /**
   * Extensions this request declares besides the client's own capabilities (2026-07-28 carries
   * client capabilities per request, so a gateway can declare what its calling client declared).
   * Ignored in the legacy era.
   */
  extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * The client capabilities this request declares instead of the client's own (2026-07-28 carries
   * them per request, so a gateway can declare its calling client's); `extensions` are added to
   * them. Ignored in the legacy era.
   */
  capabilities?: v2025_11_25.ClientCapabilities;
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
  /** The revision agreed in `initialize` (or `server/discover`), once connected. */
  readonly protocolVersion: string | undefined;
  /** The era this client speaks with the server, once connected. */
  readonly protocolEra: ProtocolEra | undefined;
  /** The server's `serverInfo`, once connected. */
  readonly serverInfo: v2025_11_25.Implementation | undefined;
  /** The server's capabilities, once connected. */
  readonly serverCapabilities: v2025_11_25.ServerCapabilities | undefined;
  /** The server's `instructions`, if it gave any. */
  readonly instructions: string | undefined;
  /** The capabilities this client declares. */
  readonly capabilities: v2025_11_25.ClientCapabilities;
  /** The JSON-RPC connection, once `connect` has been called. */
  readonly connection: Connection | undefined;

  /**
   * Opens the session in the era of `protocolEra`: `initialize` and `notifications/initialized`, or
   * `server/discover` (whose result is returned in the shape of an `initialize` result).
   */
  connect(transport: Transport): Promise<v2025_11_25.InitializeResult>;
  /** Closes the connection; pending requests reject with `ConnectionClosedError`. */
  close(): Promise<void>;
  /** Sends `ping` (modern era: `server/discover`, since 2026-07-28 has no ping). */
  ping(options?: CallOptions): Promise<void>;

  /** One page of `tools/list`. */
  listTools(options?: ListOptions): Promise<{ tools: v2025_11_25.Tool[]; nextCursor?: string }>;
  /** Every tool, following every page. */
  listAllTools(options?: CallOptions): Promise<v2025_11_25.Tool[]>;
  /** One page of `resources/list`. */
  listResources(
    options?: ListOptions,
  ): Promise<{ resources: v2025_11_25.Resource[]; nextCursor?: string }>;
  /** Every resource, following every page. */
  listAllResources(options?: CallOptions): Promise<v2025_11_25.Resource[]>;
  /** One page of `resources/templates/list`. */
  listResourceTemplates(
    options?: ListOptions,
  ): Promise<{ resourceTemplates: v2025_11_25.ResourceTemplate[]; nextCursor?: string }>;
  /** Every resource template, following every page. */
  listAllResourceTemplates(options?: CallOptions): Promise<v2025_11_25.ResourceTemplate[]>;
  /** One page of `prompts/list`. */
  listPrompts(
    options?: ListOptions,
  ): Promise<{ prompts: v2025_11_25.Prompt[]; nextCursor?: string }>;
  /** Every prompt, following every page. */
  listAllPrompts(options?: CallOptions): Promise<v2025_11_25.Prompt[]>;

  /** Calls a tool; a tool that failed resolves with `isError: true`, a protocol error rejects. */
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: CallOptions,
  ): Promise<v2025_11_25.CallToolResult>;
  /** Reads a resource. */
  readResource(
    params: { uri: string },
    options?: CallOptions,
  ): Promise<v2025_11_25.ReadResourceResult>;
  /** Gets a prompt with its arguments filled in. */
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: CallOptions,
  ): Promise<v2025_11_25.GetPromptResult>;
  /** Asks for completions of a prompt argument or template variable. */
  complete(params: CompleteParams, options?: CallOptions): Promise<v2025_11_25.CompleteResult>;
  /** Sets the threshold of the server's `notifications/message` (modern era: sent in every request's `_meta`). */
  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void>;
  /** Subscribes to `notifications/resources/updated` for `uri` (modern era: a `subscriptions/listen` stream). */
  subscribeResource(uri: string, options?: CallOptions): Promise<void>;
  /** Ends a subscription. */
  unsubscribeResource(uri: string, options?: CallOptions): Promise<void>;
  /**
   * Calls a tool as a 2025-11-25 task (`params.task`, with `ttl` in ms when given): resolves at once
   * with `CreateTaskResult`; the tool's result comes from `getTaskResult`. Needs a legacy session
   * whose server declared `tasks.requests.tools.call`.
   */
  callToolAsTask(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: CallOptions & { ttl?: number },
  ): Promise<v2025_11_25.CreateTaskResult>;
  /** `tasks/get`: the task's status now (2025-11-25). */
  getTask(taskId: string, options?: CallOptions): Promise<v2025_11_25.GetTaskResult>;
  /**
   * `tasks/result`: waits until the task ends, then resolves with the tool's result or rejects with
   * its protocol error (2025-11-25).
   */
  getTaskResult(taskId: string, options?: CallOptions): Promise<v2025_11_25.CallToolResult>;
  /** One page of `tasks/list`: this session's tasks (2025-11-25). */
  listTasks(options?: ListOptions): Promise<v2025_11_25.ListTasksResult>;
  /** `tasks/cancel`: the cancelled task (a task already ended rejects with -32602; 2025-11-25). */
  cancelTask(taskId: string, options?: CallOptions): Promise<v2025_11_25.CancelTaskResult>;
  /** Sends any request (for methods this client has no helper for). */
  request(method: string, params?: JSONRPCParams, options?: CallOptions): Promise<unknown>;
  /** Tells the server the roots changed (needs the `roots` handler; modern era: nothing to send). */
  notifyRootsListChanged(): Promise<void>;
  /**
   * Modern era: opens a `subscriptions/listen` stream; its notifications reach `on(...)` listeners.
   * Rejects in the legacy era, where the server sends them unasked.
   */
  listen(filter: SubscriptionFilter, options?: { signal?: AbortSignal }): Promise<Subscription>;

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
