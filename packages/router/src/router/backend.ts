import {
  type Client,
  createClient,
  type Implementation,
  type InitializeResult,
  type LoggingLevel,
} from "@patchbay/client";
import type { JSONRPCNotification, JSONRPCParams, Transport } from "@patchbay/jsonrpc-core";
import { JSONRPCError } from "@patchbay/jsonrpc-core";
import type { EventInput } from "@patchbay/telemetry";
import type {
  BackendListing,
  NamedItem,
  ResourceItem,
  ResourceTemplateItem,
} from "../catalogue/build-catalogue.js";
import { createNameFilter } from "../catalogue/name-filter.js";
import type { BackendConfig } from "../config/gateway-config.js";
import { backendUnavailableError } from "../errors/map-error.js";
import { createRestartPolicy, type RestartPolicy } from "../lifecycle/restart-policy.js";
import { relayHandlers } from "./relay-handlers.js";
import type { RouterClock } from "./router-clock.js";

/** Where a backend is in its life. */
export type BackendStatus =
  | "idle"
  | "starting"
  | "running"
  | "restarting"
  | "failed"
  | "stopped"
  | "disabled";

/** Opens a transport to a backend: the router takes one per transport kind as a parameter. */
export type BackendTransportFactory = (config: BackendConfig) => Transport | Promise<Transport>;

/** The server-to-client requests a backend may send, which the router relays to a client. */
export type ServerToClientMethod = "sampling/createMessage" | "elicitation/create" | "roots/list";

/** What a backend needs from the router around it. */
export interface BackendHost {
  readonly clientInfo: Implementation;
  readonly clock: RouterClock;
  readonly connect: BackendTransportFactory;
  /** Relays a server-to-client request to the client that caused it. */
  relayToClient(
    backend: string,
    method: ServerToClientMethod,
    params: unknown,
    signal: AbortSignal,
  ): Promise<unknown>;
  /** A notification other than list_changed and progress (logging, resources/updated, ...). */
  onNotification(backend: string, notification: JSONRPCNotification): void;
  /** The backend's status or listing changed. */
  onChange(backend: string): void;
  /** Records a telemetry event. */
  record(event: EventInput): void;
  /** The logging level its clients asked for, applied as it starts. */
  logLevel(backend: string): LoggingLevel | undefined;
  /**
   * The capabilities of the clients this backend serves, to declare to it as the gateway's own
   * (so a backend sees what its client can do); `undefined` when no client is known yet, and the
   * gateway then declares sampling, elicitation and roots and refuses what a client lacks.
   */
  clientCapabilities(backend: string): Readonly<Record<string, unknown>> | undefined;
  /** The revision to ask for in `initialize` (a per-session backend uses its client's). */
  protocolVersion(backend: string): string | undefined;
}

/** Options of one forwarded request. */
export interface BackendRequestOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (params: unknown) => void;
}

/** One backend server, kept running (or not) by the router. */
export interface Backend {
  readonly name: string;
  readonly config: BackendConfig;
  readonly status: BackendStatus;
  /** Its tools, prompts and resources while it runs. */
  readonly listing: BackendListing | undefined;
  /** The `initialize` result while it runs. */
  readonly initializeResult: InitializeResult | undefined;
  /** The client capabilities the gateway declared to it (what it may ask the client for). */
  readonly declaredCapabilities: Readonly<Record<string, unknown>> | undefined;
  readonly restarts: number;
  readonly lastError: string | undefined;
  /** Milliseconds since it last started, while it runs. */
  uptimeMs(): number | undefined;
  /** Starts it (idempotent); resolves once it runs or has failed. */
  start(): Promise<void>;
  /** Sends a request, starting a lazy backend first. Failures reject as the client raised them. */
  request(
    method: string,
    params: JSONRPCParams | undefined,
    options?: BackendRequestOptions,
  ): Promise<unknown>;
  /** Sends a notification if it runs. */
  notify(method: string, params?: JSONRPCParams): Promise<void>;
  /** Stops it for good (no restart). */
  stop(): Promise<void>;
}

const listKinds = [
  ["tools", "notifications/tools/list_changed"],
  ["prompts", "notifications/prompts/list_changed"],
  ["resources", "notifications/resources/list_changed"],
] as const;

/** Creates a backend; nothing starts until `start()` or a request. */
export function createBackend(config: BackendConfig, host: BackendHost): Backend {
  const policy: RestartPolicy = createRestartPolicy(config.restart, host.clock);
  const toolFilter = createNameFilter(config.tools);
  let status: BackendStatus = config.disabled ? "disabled" : "idle";
  let client: Client | undefined;
  let initializeResult: InitializeResult | undefined;
  let listing: BackendListing | undefined;
  let starting: Promise<void> | undefined;
  let restartTimer: unknown;
  let startedAt: number | undefined;
  let lastError: string | undefined;
  let stopping = false;
  let generation = 0;

  const setStatus = (next: BackendStatus) => {
    status = next;
    host.onChange(config.name);
  };

  async function discover(target: Client, kind: "tools" | "prompts" | "resources"): Promise<void> {
    const capabilities = target.serverCapabilities ?? {};
    const options = { timeoutMs: config.timeoutMs };
    const base = listing ?? { backend: config.name, namespace: config.namespace, toolFilter };
    if (kind === "tools") {
      const tools = capabilities.tools ? await target.listAllTools(options) : [];
      listing = { ...base, tools: tools as unknown as NamedItem[] };
    } else if (kind === "prompts") {
      const prompts = capabilities.prompts ? await target.listAllPrompts(options) : [];
      listing = { ...base, prompts: prompts as unknown as NamedItem[] };
    } else {
      const resources = capabilities.resources ? await target.listAllResources(options) : [];
      // Some servers answer -32601 to templates/list though they declare resources.
      const templates = capabilities.resources
        ? await target.listAllResourceTemplates(options).catch(() => [])
        : [];
      listing = {
        ...base,
        resources: resources as unknown as ResourceItem[],
        resourceTemplates: templates as unknown as ResourceTemplateItem[],
      };
    }
  }

  async function run(): Promise<void> {
    const runGeneration = ++generation;
    setStatus(status === "restarting" ? "restarting" : "starting");
    let target: Client | undefined;
    try {
      const transport = await withinTimeout(
        Promise.resolve(host.connect(config)),
        config.maxTimeoutMs,
        host.clock,
        `could not open a transport within ${config.maxTimeoutMs} ms`,
      );
      const protocolVersion = host.protocolVersion(config.name);
      target = createClient(host.clientInfo, {
        ...(protocolVersion === undefined ? {} : { protocolVersion }),
        // Starting may take long (npx downloading a server): initialize gets the hard maximum;
        // every other request passes its own timeoutMs.
        requestTimeoutMs: config.maxTimeoutMs,
        // Request timeouts run on the router's clock, so tests can drive them.
        connection: { clock: host.clock },
        ...relayHandlers(config.name, host),
      });
      const current = target;
      current.onClose(() => {
        if (runGeneration === generation && client === current) onExit("the connection closed");
      });
      for (const [kind, method] of listKinds) {
        current.on(method, () => {
          if (client !== current) return;
          discover(current, kind)
            .then(() => host.onChange(config.name))
            .catch((error: unknown) => {
              lastError = `refreshing ${kind} failed: ${describe(error)}`;
            });
        });
      }
      current.onNotification((notification) => {
        if (client !== current) return;
        const method = notification.method;
        if (method.endsWith("/list_changed") || method === "notifications/progress") return;
        if (method === "notifications/cancelled") return;
        host.onNotification(config.name, notification);
      });
      // A transport whose start never settles (an SSE stream that never names its endpoint, say)
      // must not keep the backend "starting" forever.
      initializeResult = await withinTimeout(
        current.connect(transport),
        config.maxTimeoutMs,
        host.clock,
        `did not complete initialize within ${config.maxTimeoutMs} ms`,
      );
      listing = undefined;
      await discover(current, "tools");
      await discover(current, "prompts");
      await discover(current, "resources");
      if (stopping || runGeneration !== generation) {
        await current.close();
        return;
      }
      client = current;
      startedAt = host.clock.now();
      policy.recordStart();
      const level = host.logLevel(config.name);
      if (level !== undefined && initializeResult.capabilities.logging) {
        await current.setLoggingLevel(level, { timeoutMs: config.timeoutMs }).catch(() => {});
      }
      host.record({
        event_type: policy.restarts > 0 ? "backend.restarted" : "backend.started",
        backend: config.name,
        data: {
          transport: config.transport,
          protocol_version: initializeResult.protocolVersion,
          tool_count: (listing as BackendListing | undefined)?.tools?.length ?? 0,
        },
      });
      setStatus("running");
    } catch (error) {
      lastError = describe(error);
      if (target) {
        await withinTimeout(target.close(), config.timeoutMs, host.clock, "close timed out").catch(
          () => {},
        );
      }
      if (runGeneration === generation) onExit(`start failed: ${lastError}`);
    }
  }

  function onExit(reason: string): void {
    const wasRunning = status === "running";
    client = undefined;
    listing = undefined;
    initializeResult = undefined;
    startedAt = undefined;
    if (stopping) {
      setStatus("stopped");
      return;
    }
    if (wasRunning) lastError = reason;
    const decision = policy.recordExit();
    host.record({
      event_type: "backend.crashed",
      status: "failure",
      backend: config.name,
      data: {
        reason,
        ...(decision.restart ? { restart_in_ms: decision.delayMs } : { gave_up: decision.reason }),
      },
    });
    if (!decision.restart) {
      lastError = `${reason}; ${decision.reason}`;
      setStatus("failed");
      return;
    }
    setStatus("restarting");
    restartTimer = host.clock.setTimeout(() => {
      restartTimer = undefined;
      if (!stopping)
        starting = run().finally(() => {
          starting = undefined;
        });
    }, decision.delayMs);
  }

  function send(
    target: Client,
    method: string,
    params: JSONRPCParams | undefined,
    options: BackendRequestOptions,
  ): Promise<unknown> {
    return target.request(method, params, {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress as never }),
      timeoutMs: config.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: config.maxTimeoutMs,
    });
  }

  // A lazy backend starts on its first request; one (re)starting is waited for.
  async function startThenSend(
    method: string,
    params: JSONRPCParams | undefined,
    options: BackendRequestOptions,
  ): Promise<unknown> {
    if (status === "idle") await start();
    else if (starting) await starting;
    const target = client;
    if (status !== "running" || target === undefined) {
      const error = backendUnavailableError(config.name, status);
      throw new JSONRPCError(error.code, error.message, error.data);
    }
    return await send(target, method, params, options);
  }

  function start(): Promise<void> {
    if (status === "disabled" || stopping) return Promise.resolve();
    if (status === "running") return Promise.resolve();
    if (starting) return starting;
    if (status === "restarting" || status === "failed") {
      if (status === "failed") policy.reset();
      if (restartTimer !== undefined) host.clock.clearTimeout(restartTimer);
      restartTimer = undefined;
    }
    starting = run().finally(() => {
      starting = undefined;
    });
    return starting;
  }

  return {
    name: config.name,
    config,
    get status() {
      return status;
    },
    get listing() {
      return status === "running" ? listing : undefined;
    },
    get initializeResult() {
      return initializeResult;
    },
    get declaredCapabilities() {
      return status === "running" ? (client?.capabilities as Record<string, unknown>) : undefined;
    },
    get restarts() {
      return policy.restarts;
    },
    get lastError() {
      return lastError;
    },
    uptimeMs: () => (startedAt === undefined ? undefined : host.clock.now() - startedAt),
    start,
    request(method, params, options = {}) {
      // The forwarding hot path: a running backend takes the request at once, with no extra await.
      if (status === "running" && starting === undefined && client !== undefined) {
        return send(client, method, params, options);
      }
      return startThenSend(method, params, options);
    },
    async notify(method, params) {
      const connection = client?.connection;
      if (status === "running" && connection && !connection.closed)
        await connection.notify(method, params);
    },
    async stop() {
      stopping = true;
      generation++;
      if (restartTimer !== undefined) host.clock.clearTimeout(restartTimer);
      restartTimer = undefined;
      const target = client;
      client = undefined;
      listing = undefined;
      startedAt = undefined;
      await target?.close().catch(() => {});
      if (status !== "disabled") {
        host.record({ event_type: "backend.stopped", backend: config.name });
        setStatus("stopped");
      }
    },
  };
}

/** Rejects with `message` unless `promise` settles within `timeoutMs` on `clock`. */
function withinTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number,
  clock: RouterClock,
  message: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(message)), timeoutMs);
    promise.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
