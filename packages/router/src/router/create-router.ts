import type { Implementation, LoggingLevel } from "@patchbay/client";
import { JSONRPCError, type Transport } from "@patchbay/jsonrpc-core";
import { createTelemetry, instrumentTransport, type Telemetry } from "@patchbay/telemetry";
import { buildCatalogue } from "../catalogue/build-catalogue.js";
import { CatalogueConflictError, type ConflictReport } from "../catalogue/conflict.js";
import type { BackendConfig, GatewayConfig } from "../config/gateway-config.js";
import { collectConfigSecrets, redactGatewayConfig } from "../config/redact-config.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { createNameCodec, type NameCodec } from "../namespacing/qualified-name.js";
import {
  type Backend,
  type BackendHost,
  type BackendTransportFactory,
  createBackend,
} from "./backend.js";
import { describeBackend } from "./gateway-status.js";
import { GATEWAY_TOOLS } from "./gateway-tools.js";
import { describeLifecycleEvent } from "./lifecycle-log.js";
import { type RouterClock, systemRouterClock } from "./router-clock.js";
import type { RouterContext } from "./router-context.js";
import { createRouterSession, type RouterSession } from "./router-session.js";
import { sharedLogLevel } from "./shared-log-level.js";
import { UnknownProfileError } from "./unknown-profile-error.js";

/** Options of `createRouter`. */
export interface RouterOptions {
  /** The validated config (see `parseGatewayConfig`). */
  readonly config: GatewayConfig;
  /** Opens a transport to a backend; the app passes stdio, Streamable HTTP and SSE factories. */
  readonly connect: BackendTransportFactory;
  /** How the gateway introduces itself to clients and backends. */
  readonly serverInfo?: Implementation;
  /** Events, metrics and traces; a private in-memory one by default. */
  readonly telemetry?: Telemetry;
  /** Time and timers (restart backoff, uptime). */
  readonly clock?: RouterClock;
  /** Receives warnings such as conflicts (the app logs them to stderr); config warnings such as a `:` separator come from `parseGatewayConfig`. */
  readonly onWarning?: (message: string) => void;
  /**
   * When `start()` starts the eager shared backends: `immediately` (default), or
   * `with-first-client`, when the first client has sent `initialize`, so that they are initialized
   * with that client's protocol version and capabilities (the stdio gateway has exactly one client).
   */
  readonly startBackends?: "immediately" | "with-first-client";
  /**
   * How long a client's list request waits for backends still starting before it is answered
   * with what is up (the rest arrive with `list_changed`); 10 s by default.
   */
  readonly listWaitMs?: number;
}

/** Aggregates many backend MCP servers behind one MCP server per client. */
export interface Router {
  readonly telemetry: Telemetry;
  /** The config in force. */
  readonly config: GatewayConfig;
  /**
   * Starts the eager shared backends and waits until each runs or has failed. With
   * `conflictPolicy: "error"`, rejects with `CatalogueConflictError` (and stops them) on conflicts.
   */
  start(): Promise<void>;
  /**
   * Serves one client over `transport`; the session ends when the transport closes. With a
   * `profile` (a key of the config's `profiles`), the client sees only that profile's backends and
   * tools; an unknown profile throws `UnknownProfileError`.
   */
  serve(transport: Transport, options?: { readonly profile?: string }): Promise<RouterSession>;
  /** The status `gateway_status` shows (as the given session sees it, when one is given). */
  status(sessionId?: string): Record<string, unknown>;
  /** Applies a new config: stops removed or changed backends, starts new ones, refreshes clients. */
  reload(config: GatewayConfig): Promise<void>;
  /** Stops every backend and closes every client session. */
  close(): Promise<void>;
}

/** Creates a router; call `start()` and then `serve()` for each client transport. */
export function createRouter(options: RouterOptions): Router {
  const serverInfo = options.serverInfo ?? { name: "patchbay-gateway", version: "0.0.0" };
  const telemetry = options.telemetry ?? createTelemetry({ source: "gateway" });
  const clock = options.clock ?? systemRouterClock;
  const warn = options.onWarning ?? (() => {});
  const startedAt = clock.now();
  let config = options.config;
  telemetry.addSecrets(collectConfigSecrets(config));
  let codec: NameCodec = createNameCodec({
    separator: config.namespaceSeparator,
    maxLength: config.maxNameLength,
  });
  let sessionCounter = 0;
  let closing = false;
  let closed: Promise<void> | undefined;
  const sessions = new Map<string, RouterSession>();
  const shared = new Map<string, Backend>();
  const reportedConflicts = new Set<string>();
  const deferStart = options.startBackends === "with-first-client";
  let started = false;

  const connect: BackendTransportFactory = async (backend) =>
    instrumentTransport(await options.connect(backend), telemetry, { backend: backend.name });

  function sessionsSeeing(backend: string): RouterSession[] {
    return [...sessions.values()].filter((session) =>
      session.backends().some((candidate) => candidate.name === backend),
    );
  }

  function createHost(ownerSession: string | undefined): BackendHost {
    const targets = (backend: string) =>
      ownerSession === undefined
        ? sessionsSeeing(backend)
        : [sessions.get(ownerSession)].filter((session) => session !== undefined);
    return {
      clientInfo: serverInfo,
      clock,
      connect,
      async relayToClient(backend, method, params, signal) {
        // The client whose call caused the request: the one with calls in flight to this backend.
        const candidates = targets(backend).filter((session) => session.initialized);
        const busy = candidates.find((session) => session.inFlight(backend) > 0);
        const target = busy ?? candidates[0];
        if (!target) {
          throw new JSONRPCError(
            GatewayErrorCode.CapabilityNotSupported,
            `No client is connected to the gateway to answer ${method} yet`,
            { backend, method },
          );
        }
        return await target.relay(backend, method, params, signal);
      },
      onNotification(backend, notification) {
        for (const session of targets(backend)) session.deliver(backend, notification);
      },
      onChange(backend) {
        for (const session of targets(backend)) session.refresh();
      },
      record: (event) => {
        telemetry.record(event);
        // Tell the clients of a backend that it went down or came back, in their own log.
        const line = describeLifecycleEvent(event);
        if (line && event.backend !== undefined) {
          for (const session of targets(event.backend)) session.log(line.level, line.text);
        }
      },
      logLevel: (backend) => logLevelFor(backend, ownerSession),
      protocolVersion: (backend) =>
        ownerSession === undefined
          ? targets(backend).find((session) => session.protocolVersion !== undefined)
              ?.protocolVersion
          : sessions.get(ownerSession)?.protocolVersion,
      clientCapabilities: (backend) => {
        const known = targets(backend).flatMap((session) =>
          session.clientCapabilities === undefined ? [] : [session.clientCapabilities],
        );
        return known.length === 0 ? undefined : Object.assign({}, ...known);
      },
    };
  }

  function syncShared(): Backend[] {
    const started: Backend[] = [];
    for (const backendConfig of config.backends) {
      if (backendConfig.isolation !== "shared" || shared.has(backendConfig.name)) continue;
      const backend = createBackend(backendConfig, createHost(undefined));
      shared.set(backendConfig.name, backend);
      started.push(backend);
    }
    return started;
  }
  syncShared();

  function logLevelFor(backend: string, ownerSession?: string): LoggingLevel | undefined {
    if (ownerSession !== undefined) return sessions.get(ownerSession)?.logLevel;
    return sharedLogLevel(sessionsSeeing(backend).map((session) => session.logLevel));
  }

  function reportConflicts(conflicts: readonly ConflictReport[]): void {
    for (const conflict of conflicts) {
      if (reportedConflicts.has(conflict.message)) continue;
      reportedConflicts.add(conflict.message);
      warn(conflict.message);
      telemetry.record({
        event_type: "catalogue.conflict",
        status: conflict.resolution === "rejected" ? "failure" : "success",
        data: { ...conflict },
      });
    }
  }

  const context: RouterContext = {
    serverInfo,
    listWaitMs: options.listWaitMs ?? 10_000,
    telemetry,
    clock,
    config: () => config,
    codec: () => codec,
    sharedBackend: (name) => shared.get(name),
    createSessionBackendHost: (sessionId) => createHost(sessionId),
    logLevelFor,
    status: (sessionId) => status(sessionId),
    closing: () => closing,
    subscribedElsewhere: (sessionId, backend, uri) =>
      sessionsSeeing(backend).some(
        (session) =>
          session.id !== sessionId &&
          session.backends().some((candidate) => candidate === shared.get(backend)) &&
          // Compared as the backend knows the URI: two sessions may expose it differently.
          [...session.subscriptions].some((exposed) => {
            const entry = session.catalogue().findResource(exposed);
            return entry?.backend === backend && entry.name === uri;
          }),
      ),
    reportConflicts,
    clientInitialized: () => {
      if (!deferStart || !started) return;
      if (![...sessions.values()].some((session) => session.clientCapabilities !== undefined))
        return;
      for (const backend of shared.values()) {
        if (backend.config.start === "eager" && backend.status === "idle") {
          backend.start().catch(() => {});
        }
      }
    },
    removeSession: (sessionId) => {
      sessions.delete(sessionId);
      telemetry.record({ event_type: "session.ended", data: { session: sessionId } });
    },
  };

  function status(sessionId?: string): Record<string, unknown> {
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    const visible = session ? session.backends() : [...shared.values()];
    const conflicts = session ? session.catalogue().conflicts : sharedCatalogue().conflicts;
    return telemetry.redact({
      gateway: {
        name: serverInfo.name,
        version: serverInfo.version,
        uptime_ms: clock.now() - startedAt,
        sessions: sessions.size,
        config: redactGatewayConfig(config),
        conflicts,
      },
      backends: Object.fromEntries(
        visible.map((backend) => [
          backend.name,
          describeBackend(backend, session ? [session] : [...sessions.values()], session),
        ]),
      ),
    });
  }

  function sharedCatalogue() {
    const listings = [...shared.values()].flatMap((backend) =>
      backend.listing ? [backend.listing] : [],
    );
    return buildCatalogue(listings, {
      codec,
      conflictPolicy: config.conflictPolicy,
      reservedToolNames: GATEWAY_TOOLS.map((tool) => tool.name),
    });
  }

  async function startEager(backends: Iterable<Backend>): Promise<void> {
    await Promise.all(
      [...backends]
        .filter((backend) => backend.config.start === "eager")
        .map((backend) => backend.start()),
    );
  }

  return {
    telemetry,
    get config() {
      return config;
    },
    async start() {
      started = true;
      if (deferStart && config.conflictPolicy !== "error") {
        context.clientInitialized();
        telemetry.record({
          event_type: "gateway.started",
          data: { backends: config.backends.map((backend) => backend.name), deferred: true },
        });
        return;
      }
      await startEager(shared.values());
      const conflicts = sharedCatalogue().conflicts;
      reportConflicts(conflicts);
      if (config.conflictPolicy === "error" && conflicts.length > 0) {
        await Promise.all([...shared.values()].map((backend) => backend.stop()));
        throw new CatalogueConflictError(conflicts);
      }
      telemetry.record({
        event_type: "gateway.started",
        data: { backends: config.backends.map((backend) => backend.name) },
      });
    },
    async serve(transport, serveOptions = {}) {
      const profile = serveOptions.profile;
      if (profile !== undefined && !(profile in config.profiles))
        throw new UnknownProfileError(profile);
      sessionCounter += 1;
      const id = `session-${sessionCounter}`;
      const session = createRouterSession(id, transport, context, profile);
      sessions.set(id, session);
      telemetry.record({
        event_type: "session.started",
        data: profile === undefined ? { session: id } : { session: id, profile },
      });
      await session.connection.start();
      return session;
    },
    status,
    async reload(next) {
      const previous = new Map(config.backends.map((backend) => [backend.name, backend]));
      telemetry.addSecrets(collectConfigSecrets(next));
      config = next;
      codec = createNameCodec({
        separator: next.namespaceSeparator,
        maxLength: next.maxNameLength,
      });
      for (const [name, backend] of [...shared]) {
        const wanted = next.backends.find((candidate) => candidate.name === name);
        if (wanted?.isolation !== "shared" || !sameBackend(previous.get(name), wanted)) {
          shared.delete(name);
          await backend.stop();
        }
      }
      const added = syncShared();
      await Promise.all([...sessions.values()].map((session) => session.reconcile()));
      const anyClient = [...sessions.values()].some(
        (session) => session.clientCapabilities !== undefined,
      );
      telemetry.record({
        event_type: "gateway.reloaded",
        data: { backends: next.backends.map((backend) => backend.name) },
      });
      if (!deferStart || anyClient) await startEager(added);
      for (const session of sessions.values()) session.refresh();
    },
    close() {
      // One shutdown, whoever asks: a session closing during it may ask again and must wait too.
      closed ??= (async () => {
        closing = true;
        await Promise.all([...sessions.values()].map((session) => session.close().catch(() => {})));
        await Promise.all([...shared.values()].map((backend) => backend.stop()));
        telemetry.record({ event_type: "gateway.stopped" });
      })();
      return closed;
    },
  };
}

function sameBackend(before: BackendConfig | undefined, after: BackendConfig): boolean {
  return before !== undefined && JSON.stringify(before) === JSON.stringify(after);
}
