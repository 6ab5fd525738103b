import { LATEST_LEGACY_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@patchbay/client";
import {
  type Connection,
  createConnection,
  JSONRPCError,
  type JSONRPCNotification,
  type JSONRPCParams,
  type RequestContext,
  type Transport,
} from "@patchbay/jsonrpc-core";
import {
  createMcpConnectionHooks,
  initializedAliasNotification,
  isLoggingLevel,
  isLoggingLevelEnabled,
  type LoggingLevel,
} from "@patchbay/mcp-types";
import { injectTraceContext, instrumentConnection, requestTraceOf } from "@patchbay/telemetry";
import { buildCatalogue, type Catalogue } from "../catalogue/build-catalogue.js";
import { createNameFilter, type NameFilter } from "../catalogue/name-filter.js";
import type { ProfileConfig } from "../config/gateway-config.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { INVALID_PARAMS, mapBackendError, unknownNameError } from "../errors/map-error.js";
import { type Backend, createBackend, type ServerToClientMethod } from "./backend.js";
import { registerCatalogueRequests } from "./catalogue-requests.js";
import { combineInstructions } from "./combined-instructions.js";
import { prepareForwardedParams } from "./forwarded-params.js";
import { GATEWAY_TOOLS } from "./gateway-tools.js";
import { routeBackendNotification } from "./route-notification.js";
import type { RouterContext } from "./router-context.js";
import { asParams, type Params, type SessionScope, toJSONRPCError } from "./session-scope.js";

const listChangedMethods = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
} as const;

const requiredClientCapability: Record<ServerToClientMethod, "sampling" | "elicitation" | "roots"> =
  {
    "sampling/createMessage": "sampling",
    "elicitation/create": "elicitation",
    "roots/list": "roots",
  };

/** One client connected to the router. */
export interface RouterSession {
  readonly id: string;
  readonly connection: Connection;
  /** True once the client sent `notifications/initialized`. */
  readonly initialized: boolean;
  /** Exposed resource URIs this client subscribed to. */
  readonly subscriptions: ReadonlySet<string>;
  /** The profile the session was opened with, if any. */
  readonly profile: string | undefined;
  /** The revision agreed with the client in `initialize`. */
  readonly protocolVersion: string | undefined;
  /** The capabilities the client declared in `initialize`, once it did. */
  readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** The logging level this client asked for with `logging/setLevel`, if any. */
  readonly logLevel: LoggingLevel | undefined;
  /** The backends this session sees, in config order (shared ones and its own). */
  backends(): Backend[];
  /** The catalogue as this session sees it. */
  catalogue(): Catalogue;
  /** Re-reads the catalogue and tells the client which lists changed. */
  refresh(): void;
  /** Relays a server-to-client request from a backend to this client. */
  relay(
    backend: string,
    method: ServerToClientMethod,
    params: unknown,
    signal: AbortSignal,
  ): Promise<unknown>;
  /** Sends the client a log message of the gateway's own (filtered by the client's level). */
  log(level: LoggingLevel, data: string): void;
  /** Delivers a backend notification to this client as the forwarding rules say. */
  deliver(backend: string, notification: JSONRPCNotification): void;
  /** Requests in flight to a backend from this session (to pick who gets its requests). */
  inFlight(backend: string): number;
  /** Counts of server-to-client requests refused, per backend and method. */
  readonly refused: ReadonlyMap<string, number>;
  /** Stops the session's own backends and replaces changed ones after a config reload. */
  reconcile(): Promise<void>;
  close(): Promise<void>;
}

/** Serves one client over `transport` on behalf of the router. */
export function createRouterSession(
  id: string,
  transport: Transport,
  router: RouterContext,
  profileName?: string,
): RouterSession {
  const base = createConnection(transport, { ...createMcpConnectionHooks(), defaultTimeoutMs: 0 });
  const connection = instrumentConnection(base, router.telemetry, { source: "gateway" });
  const own = new Map<string, Backend>();
  const subscriptions = new Set<string>();
  // Exposed tool name -> backend, kept while the backend is down, for a helpful error.
  const formerOwners = new Map<string, string>();
  const inFlightCounts = new Map<string, number>();
  const refused = new Map<string, number>();
  let clientCapabilities: Params = {};
  let initialized = false;
  let negotiatedVersion: string | undefined;
  let logLevel: LoggingLevel | undefined;
  let initializeReceived = false;
  let cached: Catalogue | undefined;
  let fingerprints: Record<string, string> = {};
  let closed = false;

  function ownBackendConfigFingerprint(backend: Backend): string {
    return JSON.stringify(backend.config);
  }

  // A profile limits the session to some backends and tools; read on each use, so a reload applies.
  function profile(): ProfileConfig | undefined {
    if (profileName === undefined) return undefined;
    return router.config().profiles[profileName] ?? { backends: [], tools: {} };
  }

  function toolFilter(): NameFilter | undefined {
    const tools = profile()?.tools;
    return tools && (tools.allow !== undefined || tools.deny !== undefined)
      ? createNameFilter(tools)
      : undefined;
  }

  function backends(): Backend[] {
    const list: Backend[] = [];
    const allowed = profile()?.backends;
    for (const config of router.config().backends) {
      if (allowed !== undefined && !allowed.includes(config.name)) continue;
      if (config.isolation === "per-session") {
        let backend = own.get(config.name);
        if (backend === undefined) {
          backend = createBackend(config, router.createSessionBackendHost(id));
          own.set(config.name, backend);
        }
        list.push(backend);
      } else {
        const shared = router.sharedBackend(config.name);
        if (shared) list.push(shared);
      }
    }
    return list;
  }

  function findBackend(name: string): Backend | undefined {
    return backends().find((backend) => backend.name === name);
  }

  function catalogue(): Catalogue {
    if (cached) return cached;
    const listings = backends().flatMap((backend) => (backend.listing ? [backend.listing] : []));
    const exposedToolFilter = toolFilter();
    cached = buildCatalogue(listings, {
      codec: router.codec(),
      conflictPolicy: router.config().conflictPolicy,
      reservedToolNames: GATEWAY_TOOLS.map((tool) => tool.name),
      ...(exposedToolFilter ? { exposedToolFilter } : {}),
    });
    router.reportConflicts(cached.conflicts);
    for (const tool of cached.tools) {
      const entry = cached.findTool(tool.name);
      if (entry) formerOwners.set(tool.name, entry.backend);
    }
    return cached;
  }

  function fingerprintsOf(current: Catalogue): Record<string, string> {
    return {
      tools: JSON.stringify(current.tools),
      prompts: JSON.stringify(current.prompts),
      resources: JSON.stringify([current.resources, current.resourceTemplates]),
    };
  }

  function refresh(): void {
    cached = undefined;
    if (!initialized || closed) return;
    const next = fingerprintsOf(catalogue());
    for (const kind of ["tools", "prompts", "resources"] as const) {
      if (next[kind] !== fingerprints[kind]) {
        connection.notify(listChangedMethods[kind]).catch(() => {});
      }
    }
    fingerprints = next;
  }

  // A client's first lists should hold every backend that can come up: lazy ones are started, and
  // ones still in their first start are waited for, up to listWaitMs (the others then arrive with
  // list_changed), so the gateway can answer `initialize` before slow backends are up. Restarting
  // backends are not waited for.
  async function awaitStartingBackends(): Promise<void> {
    const pending = backends().filter(
      (backend) => backend.status === "idle" || backend.status === "starting",
    );
    if (pending.length === 0) return;
    await new Promise<void>((resolve) => {
      const timer = router.clock.setTimeout(resolve, router.listWaitMs);
      Promise.all(pending.map((backend) => backend.start())).then(() => {
        router.clock.clearTimeout(timer);
        resolve();
      });
    });
  }

  async function forward(
    backendName: string,
    method: string,
    params: Params,
    context: RequestContext,
  ): Promise<unknown> {
    const backend = findBackend(backendName);
    if (!backend) throw toJSONRPCError(unknownNameError("tool", backendName));
    if (router.closing()) {
      throw new JSONRPCError(GatewayErrorCode.GatewayShuttingDown, "The gateway is shutting down", {
        backend: backendName,
      });
    }
    const prepared = prepareForwardedParams(params);
    const clientToken = prepared.progressToken;
    const trace = requestTraceOf(context);
    const sent = trace ? injectTraceContext(prepared.params, trace) : prepared.params;
    const onProgress =
      clientToken === undefined
        ? undefined
        : (progress: unknown) => {
            const forwarded = { ...(progress as Params), progressToken: clientToken };
            connection.notify("notifications/progress", forwarded).catch(() => {});
          };
    inFlightCounts.set(backendName, (inFlightCounts.get(backendName) ?? 0) + 1);
    try {
      return await backend.request(method, sent as JSONRPCParams, {
        signal: context.signal,
        ...(onProgress ? { onProgress } : {}),
      });
    } catch (error) {
      if (JSONRPCError.isInstance(error) && isGatewayMade(error.code) && hasBackend(error.data))
        throw error;
      throw toJSONRPCError(
        mapBackendError(error, backendName, { redact: router.telemetry.redact }),
      );
    } finally {
      inFlightCounts.set(backendName, (inFlightCounts.get(backendName) ?? 1) - 1);
    }
  }

  // A client must open with initialize (MCP lifecycle); only ping may come before it.
  function requireInitialize(method: string): void {
    if (!initializeReceived) {
      throw new JSONRPCError(
        -32600,
        `Session not initialized: the client must send initialize before ${method}`,
      );
    }
  }

  connection.handle("initialize", (params) => {
    if (initializeReceived) throw new JSONRPCError(-32600, "The session is already initialized");
    initializeReceived = true;
    const request = asParams(params);
    const requested = typeof request.protocolVersion === "string" ? request.protocolVersion : "";
    clientCapabilities = asParams(request.capabilities as JSONRPCParams);
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
      ? requested
      : LATEST_LEGACY_PROTOCOL_VERSION;
    negotiatedVersion = protocolVersion;
    for (const backend of backends()) {
      if (backend.config.isolation === "per-session" && backend.config.start === "eager") {
        backend.start().catch(() => {});
      }
    }
    router.clientInitialized();
    // Backends already running (eager start, reload) have told theirs; later ones cannot be added.
    const separator = router.config().namespaceSeparator;
    const instructions = combineInstructions(
      backends().flatMap((backend) => {
        const text = backend.status === "running" ? backend.initializeResult?.instructions : "";
        const namespace = backend.config.namespace;
        return text
          ? [
              {
                name: backend.name,
                prefix: namespace === "" ? "" : `${namespace}${separator}`,
                instructions: text,
              },
            ]
          : [];
      }),
    );
    return {
      protocolVersion,
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {},
        completions: {},
      },
      serverInfo: router.serverInfo,
      ...(instructions === undefined ? {} : { instructions }),
    };
  });

  const onInitialized = async () => {
    initialized = true;
    fingerprints = fingerprintsOf(catalogue());
    // Backends that asked for roots before this client came may ask again now.
    if (clientCapabilities.roots !== undefined) {
      await Promise.all(
        backends().map((backend) =>
          backend.notify("notifications/roots/list_changed").catch(() => {}),
        ),
      );
    }
  };
  connection.handleNotification("notifications/initialized", onInitialized);
  // Older clients (and gateways) send the bare `initialized`; it means the same.
  connection.handleNotification(initializedAliasNotification.method, onInitialized);

  connection.handle("ping", () => ({}));

  const scope: SessionScope = {
    id,
    connection,
    router,
    formerOwner: (exposedName) => {
      const backend = formerOwners.get(exposedName);
      const status = backend === undefined ? undefined : findBackend(backend)?.status;
      return backend !== undefined && status !== undefined && status !== "running"
        ? { backend, status }
        : undefined;
    },
    gatewayTools: () => {
      const filter = toolFilter();
      return filter ? GATEWAY_TOOLS.filter((tool) => filter(tool.name)) : GATEWAY_TOOLS;
    },
    handle: (method, handler) => {
      connection.handle(method, (params, context) => {
        requireInitialize(method);
        return handler(params, context);
      });
    },
    subscriptions,
    findBackend,
    catalogue,
    awaitStartingBackends,
    noteListed(list) {
      if (!initialized) return;
      const kind = list === "resourceTemplates" ? "resources" : list;
      fingerprints[kind] = fingerprintsOf(catalogue())[kind] ?? "";
    },
    forward,
  };
  registerCatalogueRequests(scope);

  scope.handle("logging/setLevel", async (params) => {
    const level = asParams(params).level;
    if (typeof level !== "string" || !isLoggingLevel(level)) {
      throw new JSONRPCError(INVALID_PARAMS, `Invalid logging level: ${JSON.stringify(level)}`);
    }
    logLevel = level;
    await awaitStartingBackends();
    await Promise.all(
      backends()
        .filter(
          (backend) =>
            backend.status === "running" && backend.initializeResult?.capabilities.logging,
        )
        .map((backend) => {
          const backendLevel = router.logLevelFor(
            backend.name,
            backend.config.isolation === "per-session" ? id : undefined,
          );
          return backendLevel === undefined
            ? undefined
            : backend.request("logging/setLevel", { level: backendLevel }).catch(() => {});
        }),
    );
    return {};
  });

  connection.handleNotification("notifications/roots/list_changed", async () => {
    await Promise.all(
      backends().map((backend) =>
        backend.notify("notifications/roots/list_changed").catch(() => {}),
      ),
    );
  });

  connection.setFallbackRequestHandler(async (params, context) => {
    requireInitialize(context.method);
    // A method the gateway does not know can only go to a backend when there is exactly one.
    const running = backends().filter((backend) => backend.status === "running");
    const only = running.length === 1 ? running[0] : undefined;
    if (!only) {
      throw new JSONRPCError(-32601, `Method not found: ${context.method}`, {
        reason: "the gateway cannot tell which backend should receive it",
      });
    }
    return await forward(only.name, context.method, asParams(params), context);
  });

  // A shared backend outlives the session: release what it subscribed to there, unless another
  // live session holds the same resource (its own backends stop, which releases theirs).
  function releaseSharedSubscriptions(): void {
    const current = catalogue();
    for (const uri of subscriptions) {
      const entry = current.findResource(uri);
      const backend = entry && router.sharedBackend(entry.backend);
      if (!entry || !backend || backend.status !== "running") continue;
      if (router.subscribedElsewhere(id, entry.backend, entry.name)) continue;
      backend.request("resources/unsubscribe", { uri: entry.name }).catch(() => {});
    }
    subscriptions.clear();
  }

  connection.onClose(() => {
    closed = true;
    router.removeSession(id);
    if (!router.closing()) releaseSharedSubscriptions();
    for (const backend of own.values()) backend.stop().catch(() => {});
  });

  const session: RouterSession = {
    id,
    connection,
    get initialized() {
      return initialized;
    },
    profile: profileName,
    subscriptions,
    get protocolVersion() {
      return negotiatedVersion;
    },
    get logLevel() {
      return logLevel;
    },
    get clientCapabilities() {
      return initializeReceived ? clientCapabilities : undefined;
    },
    backends,
    catalogue,
    refresh,
    async relay(backend, method, params, signal) {
      const capability = requiredClientCapability[method];
      if (clientCapabilities[capability] === undefined) {
        const key = `${backend} ${method}`;
        refused.set(key, (refused.get(key) ?? 0) + 1);
        router.telemetry.record({
          event_type: "request.refused",
          status: "failure",
          backend,
          method,
          data: { reason: `the client did not declare the ${capability} capability` },
        });
        throw new JSONRPCError(
          GatewayErrorCode.CapabilityNotSupported,
          `The client connected to the gateway does not support ${method} (no ${capability} capability)`,
          { backend, method },
        );
      }
      const maxTimeoutMs = findBackend(backend)?.config.maxTimeoutMs ?? 0;
      return await connection.request(method, params as JSONRPCParams, {
        signal,
        timeoutMs: maxTimeoutMs,
      });
    },
    log(level, data) {
      if (!initialized || closed || !isLoggingLevelEnabled(level, logLevel)) return;
      connection
        .notify("notifications/message", { level, logger: "patchbay-gateway", data })
        .catch(() => {});
    },
    deliver(backend, notification) {
      if (!initialized || closed) return;
      const routed = routeBackendNotification(backend, notification, {
        logLevel,
        subscriptions,
        exposeResourceUri: (uri) => catalogue().exposeResourceUri(backend, uri),
      });
      if (routed) connection.notify(routed.method, routed.params).catch(() => {});
    },
    inFlight: (backend) => inFlightCounts.get(backend) ?? 0,
    refused,
    async reconcile() {
      const wanted = new Map(
        router
          .config()
          .backends.filter((config) => config.isolation === "per-session")
          .map((config) => [config.name, JSON.stringify(config)]),
      );
      for (const [name, backend] of [...own]) {
        if (wanted.get(name) !== ownBackendConfigFingerprint(backend)) {
          own.delete(name);
          await backend.stop();
        }
      }
      if (initialized) {
        for (const backend of backends()) {
          if (backend.config.start === "eager" && backend.status === "idle")
            backend.start().catch(() => {});
        }
      }
      refresh();
    },
    async close() {
      await connection.close();
    },
  };
  return session;
}

function isGatewayMade(code: number): boolean {
  return code <= -32000 && code >= -32019;
}

function hasBackend(data: unknown): boolean {
  return typeof data === "object" && data !== null && "backend" in data;
}
