import type { Implementation } from "@patchbay/client";
import type { Transport } from "@patchbay/jsonrpc-core";
import {
  type AuditLog,
  createTelemetry,
  instrumentTransport,
  type Telemetry,
} from "@patchbay/telemetry";
import type { Backend, BackendTransportFactory } from "../backends/backend.js";
import { BackendPool, type BackendWiring } from "../backends/backend-pool.js";
import { PrincipalBackends, type PrincipalCredentials } from "../backends/principal-backends.js";
import { type RouterClock, systemRouterClock } from "../backends/router-clock.js";
import type { Catalogue } from "../catalogue/build-catalogue.js";
import { CatalogueConflictError } from "../catalogue/conflict.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import type { SharedToolLimits } from "../governance/shared-tool-limits.js";
import {
  type ModernEndpoint,
  ModernFronts,
  tellingListChanges,
} from "../modern/modern-endpoint.js";
import { splitModernFrames } from "../modern/modern-frames.js";
import {
  type ModernFrontOptions,
  type ModernSettings,
  resolveModernSettings,
} from "../modern/modern-settings.js";
import type { PinGuard, RouterPins } from "../pins/pin-guard.js";
import type { PinStore } from "../pins/pin-store.js";
import { GATEWAY_TOOLS } from "../sessions/gateway-tools.js";
import type { RouterSession } from "../sessions/router-session.js";
import { Switchboard } from "../switchboard/switchboard.js";
import { describeRouter, eventsSeenBy, sharedCatalogue } from "./gateway-status.js";
import { createRouterPins } from "./router-pins.js";
import { type RouterSessionListener, RouterSessions } from "./router-sessions.js";
import { RouterState } from "./router-state.js";
import { OPERATOR_VIEWER, type SessionViewer } from "./session-viewer.js";
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
  /** The modern (2026-07-28) front: held-call deadline and limits, caching hints, state key. */
  readonly modern?: ModernFrontOptions;
  /** Receives one record per tool call (see the telemetry README, "Audit log"); none by default. */
  readonly audit?: AuditLog;
  /** `network.transport` of client sessions' spans: `pipe` (stdio) or `tcp` (HTTP, WebSocket). */
  readonly clientNetworkTransport?: string;
  /** Where pins are kept (read by `start()`); in memory by default. */
  readonly pinStore?: PinStore;
  /**
   * Counts `perMinute` of `limits.tools` on a limiter routers share (a cluster's
   * `createRateLimiter`), so the limit holds across them; `concurrent` stays per router.
   */
  readonly sharedToolLimits?: SharedToolLimits;
  /**
   * The values of per-principal backends (`isolation: "per-principal"`), read as each principal's
   * instance is made; without it, no principal reaches such a backend.
   */
  readonly credentials?: PrincipalCredentials;
}

/** Aggregates many backend MCP servers behind one MCP server per client. */
export interface Router {
  readonly telemetry: Telemetry;
  /** Pinned definitions, those withheld, and approving them (see the README, "Pins"). */
  readonly pins: RouterPins;
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
   * tools; an unknown profile throws `UnknownProfileError`. `viewer` says what the gateway's own
   * tools show the client: everything (the default, `{ operator: true }`: whoever runs the router),
   * or, for `{ operator: false, owner }`, only its profile's backends and its owner's sessions'
   * events (see `SessionViewer`).
   */
  serve(
    transport: Transport,
    options?: {
      readonly profile?: string;
      readonly viewer?: SessionViewer;
      /** The transport's session id (`Mcp-Session-Id`): spans' `mcp.session.id` (default the router's). */
      readonly mcpSessionId?: string;
      /**
       * True for a transport that carries one legacy session from its first frame, an `initialize`
       * (a Streamable HTTP session, which its `initialize` opened): no modern (2026-07-28) request
       * is looked for on it, so it is served without the wrapper that does that (a stdio
       * transport's). Default false.
       */
      readonly legacyOnly?: boolean;
    },
  ): Promise<RouterSession>;
  /**
   * The modern (2026-07-28) request path of a profile (default: all backends), for a transport
   * that serves modern requests beside legacy sessions. Modern clients on a transport handed to
   * `serve` (stdio) are served without it. An unknown profile throws `UnknownProfileError`.
   */
  modern(options?: { readonly profile?: string }): ModernEndpoint;
  /**
   * The backend that serves an exposed tool or prompt name (the router routes by this answer):
   * `"gateway"` for the router's own tools, the backend's config key for a backend's, and
   * `undefined` for a name no backend serves. See `OwnerOfOptions` for the list and the session.
   */
  ownerOf(exposedName: string, options?: OwnerOfOptions): string | undefined;
  /**
   * Subscribes to client sessions opening, sending `initialize` and ending (for a dashboard that
   * lists them); returns the unsubscribe function. See `RouterSessionEvent`.
   */
  onSession(listener: RouterSessionListener): () => void;
  /** The status `gateway_status` shows (as the given session sees it, when one is given). */
  status(sessionId?: string): Record<string, unknown>;
  /** Applies a new config: stops removed or changed backends, starts new ones, refreshes clients. */
  reload(config: GatewayConfig): Promise<void>;
  /** Stops every backend and closes every client session. */
  close(): Promise<void>;
}

/** Creates a router; call `start()` and then `serve()` for each client transport. */
export function createRouter(options: RouterOptions): Router {
  const router = assembleRouter(options);
  const { state, telemetry, pins, sessions, owners, pool, principals, opener, fronts } = router;
  const { deferStart, status } = router;
  let transportCounter = 0;
  let closed: Promise<void> | undefined;
  const checkProfile = (profile: string | undefined) => {
    if (profile !== undefined && !Object.hasOwn(state.config.profiles, profile))
      throw new UnknownProfileError(profile);
  };
  // A modern client on a transport handed to `serve` (stdio) is a caller of its own, ended with
  // the transport.
  const splitModern = (
    transport: Transport,
    profile: string | undefined,
    viewer: SessionViewer,
  ) => {
    transportCounter += 1;
    const caller = `transport-${transportCounter}`;
    const modern = fronts.endpoint(profile);
    const split = splitModernFrames(transport, (message, context) =>
      modern.handle(message, { ...context, caller, viewer }),
    );
    transport.onClose(() => {
      fronts.release(caller).catch(() => {});
    });
    return split;
  };

  return {
    telemetry,
    pins,
    get config() {
      return state.config;
    },
    async start() {
      router.started = true;
      if (deferStart && state.config.conflictPolicy !== "error") startDeferred(router);
      await startRouter(state, pool, deferStart);
    },
    async serve(transport, serveOptions = {}) {
      const profile = serveOptions.profile;
      const viewer = serveOptions.viewer ?? OPERATOR_VIEWER;
      checkProfile(profile);
      const served =
        serveOptions.legacyOnly === true ? transport : splitModern(transport, profile, viewer);
      return await opener.open(served, profile, false, viewer, serveOptions.mcpSessionId);
    },
    modern(modernOptions = {}) {
      checkProfile(modernOptions.profile);
      return fronts.endpoint(modernOptions.profile);
    },
    ownerOf(exposedName, ownerOptions = {}) {
      const { sessionId } = ownerOptions;
      const session = sessionId === undefined ? undefined : sessions.get(sessionId);
      return owners.ownerOf(exposedName, ownerOptions, session);
    },
    onSession: (listener) => opener.listen(listener),
    status,
    async reload(next) {
      const added = await reloadRouter(next, router);
      if (!deferStart || anyClient(sessions)) await pool.startEager(added);
      for (const session of sessions.values()) session.refresh();
    },
    close() {
      // One shutdown, whoever asks: a session closing during it may ask again and must wait too.
      closed ??= (async () => {
        state.closing = true;
        await fronts.closeAll();
        await Promise.all([...sessions.values()].map((session) => session.close().catch(() => {})));
        await pool.stopAll();
        await principals.stopAll();
        telemetry.record({ event_type: "gateway.stopped" });
      })();
      return closed;
    },
  };
}

/** A router's settings with their defaults: its state, and what it tells clients and backends. */
interface RouterSettings {
  readonly serverInfo: Implementation;
  readonly telemetry: Telemetry;
  readonly clock: RouterClock;
  readonly modernSettings: ModernSettings;
  readonly state: RouterState;
  /** When the router was made, for its uptime. */
  readonly startedAt: number;
}

function resolveRouterSettings(options: RouterOptions): RouterSettings {
  const serverInfo = options.serverInfo ?? { name: "patchbay-gateway", version: "0.0.0" };
  const telemetry = options.telemetry ?? createTelemetry({ source: "gateway" });
  const clock = options.clock ?? systemRouterClock;
  const modernSettings = resolveModernSettings(options.modern ?? {}, clock);
  const state = new RouterState({
    config: options.config,
    serverInfo,
    telemetry,
    clock,
    listWaitMs: options.listWaitMs ?? 10_000,
    warn: options.onWarning ?? (() => {}),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
    clientNetworkTransport: options.clientNetworkTransport,
    sharedToolLimits: options.sharedToolLimits,
    taskLimits: modernSettings.tasks,
  });
  return { serverInfo, telemetry, clock, modernSettings, state, startedAt: clock.now() };
}

/** A router's backends: shared and per-principal instances, their pins, and who owns which name. */
interface RouterBackends {
  readonly owners: NameOwners;
  readonly pins: PinGuard;
  readonly pool: BackendPool;
  readonly principals: PrincipalBackends;
}

/**
 * Wires the backends: each transport instrumented and opened only once the pins are read, their
 * events routed to the sessions (and modern fronts) that see them.
 */
function wireBackends(
  options: RouterOptions,
  settings: RouterSettings,
  switchboard: Switchboard<RouterSession>,
  modernFronts: () => ModernFronts | undefined,
): RouterBackends {
  const { state, telemetry, serverInfo, clock } = settings;
  const owners: NameOwners = new NameOwners(state, () => sharedCatalogue(state, pool));
  const pins = createRouterPins(options, state, telemetry, switchboard.sessions, () => pool);
  const connect = pins.afterLoad(options.connect); // no backend is listed before its pins are read
  const pool = new BackendPool({
    clientInfo: serverInfo,
    clock,
    connect: async (backend, context) =>
      instrumentTransport(await connect(backend, context), telemetry, {
        backend: backend.name,
        networkTransport: backend.transport === "stdio" ? "pipe" : "tcp",
      }),
    wiring: owners.watch(tellingListChanges(switchboard, modernFronts)),
    principalWiring: switchboard,
    vet: (listing) => pins.vet(listing),
  });
  // A principal who connected sees the backend's tools: its sessions look again (making the
  // instance), and are told of the list once the instance listed them.
  const principals = new PrincipalBackends(pool, options.credentials, (principal, backend) =>
    switchboard.route({ type: "changed", backend }, undefined, principal),
  );
  return { owners, pins, pool, principals };
}

/** A router's parts, what its methods read; `started` once `start()` was called. */
interface RouterParts extends RouterSettings, RouterBackends {
  readonly sessions: Map<string, RouterSession>;
  readonly opener: RouterSessions;
  readonly fronts: ModernFronts;
  /** The status `gateway_status` shows (see `Router.status`). */
  readonly status: (sessionId?: string) => Record<string, unknown>;
  readonly deferStart: boolean;
  started: boolean;
}

/** Makes the router's parts: its settings, its backends, and the openers of client sessions. */
function assembleRouter(options: RouterOptions): RouterParts {
  const settings = resolveRouterSettings(options);
  const { state, telemetry, clock, serverInfo, modernSettings, startedAt } = settings;
  const switchboard = new Switchboard<RouterSession>(telemetry, state.tasks);
  let modernFronts: ModernFronts | undefined;
  const backends = wireBackends(options, settings, switchboard, () => modernFronts);
  const { pool, principals, pins } = backends;
  pool.sync(state.config);
  const sessions = switchboard.sessions;
  // The status is a tool result a model may read (prompt injection): no secret may reach it.
  const status = (sessionId?: string) =>
    telemetry.redact(
      describeRouter({ state, pool, sessions, pins, uptimeMs: clock.now() - startedAt }, sessionId),
    );
  const events = (sessionId: string, query: Readonly<Record<string, unknown>>) =>
    eventsSeenBy({ state, sessions }, sessionId, query);
  const opener = new RouterSessions(
    sessions,
    { state, pool, principals, peers: switchboard, status, events },
    () => startDeferred(router),
  );
  const fronts = new ModernFronts(
    modernSettings,
    state.tasks,
    serverInfo,
    (transport, profile, viewer) => opener.open(transport, profile, true, viewer),
  );
  modernFronts = fronts;
  const deferStart = options.startBackends === "with-first-client";
  const router: RouterParts = {
    ...settings,
    ...backends,
    sessions,
    opener,
    fronts,
    status,
    deferStart,
    started: false,
  };
  return router;
}

function anyClient(sessions: ReadonlyMap<string, RouterSession>): boolean {
  return [...sessions.values()].some((session) => session.clientCapabilities !== undefined);
}

/** With `with-first-client`, shared backends start once a client has declared itself. */
function startDeferred(router: RouterParts): void {
  if (router.deferStart && router.started && anyClient(router.sessions)) {
    router.pool.startIdleEager();
  }
}

/**
 * Starts the shared backends and records `gateway.started`. With `deferred` (and a conflict policy
 * that need not see every backend first), they wait for the first client instead. With
 * `conflictPolicy: "error"`, a name two backends expose stops them all and throws.
 */
async function startRouter(state: RouterState, pool: BackendPool, deferred: boolean) {
  const { telemetry } = state;
  const names = state.config.backends.map((backend) => backend.name);
  if (deferred && state.config.conflictPolicy !== "error") {
    telemetry.record({ event_type: "gateway.started", data: { backends: names, deferred: true } });
    return;
  }
  await pool.startEager();
  const conflicts = sharedCatalogue(state, pool).conflicts;
  state.reportConflicts(conflicts);
  if (state.config.conflictPolicy === "error" && conflicts.length > 0) {
    await pool.stopAll();
    throw new CatalogueConflictError(conflicts);
  }
  telemetry.record({ event_type: "gateway.started", data: { backends: names } });
}

/**
 * Applies a new config: sessions of profiles it no longer has end (their clients reconnect to an
 * endpoint that exists; until then their view is empty, never every backend), backends are
 * added, changed or stopped, and every session reconciles its view. Returns the backends added.
 */
async function reloadRouter(
  next: GatewayConfig,
  parts: {
    readonly state: RouterState;
    readonly owners: NameOwners;
    readonly sessions: ReadonlyMap<string, RouterSession>;
    readonly pool: BackendPool;
    readonly principals: PrincipalBackends;
    readonly telemetry: Telemetry;
  },
): Promise<Backend[]> {
  const { state, owners, sessions, pool, principals, telemetry } = parts;
  state.apply(next);
  owners.forget();
  const orphaned = [...sessions.values()].filter(
    (session) => session.profile !== undefined && !Object.hasOwn(next.profiles, session.profile),
  );
  await Promise.all(orphaned.map((session) => session.close().catch(() => {})));
  const added = await pool.reload(next);
  await principals.reconcile(next);
  await Promise.all([...sessions.values()].map((session) => session.reconcile()));
  telemetry.record({
    event_type: "gateway.reloaded",
    data: { backends: next.backends.map((backend) => backend.name) },
  });
  return added;
}

/** What `router.ownerOf` answers for the tools the router serves itself (`gateway_status`, `get_events`). */
export const GATEWAY_OWNER = "gateway";

/** Options of `router.ownerOf`. */
export interface OwnerOfOptions {
  /** Which list the name is in; both are searched (tools first) when absent. */
  readonly kind?: "tool" | "prompt";
  /** Answer as this session sees the catalogue (its profile, its own backends); default: the shared one. */
  readonly sessionId?: string;
}

const gatewayToolNames = new Set(GATEWAY_TOOLS.map((tool) => tool.name));

/**
 * Answers `router.ownerOf`: from a session's catalogue when one is named, else from the shared
 * catalogue, which is cached until a shared backend's status or listing changes (see `watch`) or
 * the config is reloaded (`forget`).
 */
export class NameOwners {
  readonly #state: RouterState;
  readonly #sharedCatalogue: () => Catalogue;
  #shared: Catalogue | undefined;

  constructor(state: RouterState, sharedCatalogue: () => Catalogue) {
    this.#state = state;
    this.#sharedCatalogue = sharedCatalogue;
  }

  /** The backends' wiring, with every change of a shared backend dropping the cached catalogue. */
  watch(wiring: BackendWiring): BackendWiring {
    return {
      wire: (backend, owner) => {
        const wired = wiring.wire(backend, owner);
        if (owner !== undefined) return wired;
        return {
          audience: wired.audience,
          listener: (event) => {
            if (event.type === "changed") this.forget();
            wired.listener(event);
          },
        };
      },
    };
  }

  /** Drops the cached shared catalogue (a reload changed the config). */
  forget(): void {
    this.#shared = undefined;
  }

  /**
   * The backend serving `exposedName`, as `session` sees the catalogue or, without one, every
   * client: {@link GATEWAY_OWNER} for the router's own tools, else the backend the catalogue routes
   * the name to. A name the catalogue does not list now (its backend is down, or is another
   * session's own) belongs to the backend whose namespace it is in, since names inside a namespace
   * are that backend's alone. `undefined` for any other name.
   */
  ownerOf(
    exposedName: string,
    options: OwnerOfOptions,
    session: { catalogue(): Catalogue } | undefined,
  ): string | undefined {
    let catalogue = session?.catalogue();
    if (catalogue === undefined) {
      this.#shared ??= this.#sharedCatalogue();
      catalogue = this.#shared;
    }
    if (options.kind !== "prompt" && gatewayToolNames.has(exposedName)) return GATEWAY_OWNER;
    const listed =
      (options.kind === "prompt" ? undefined : catalogue.findTool(exposedName)) ??
      (options.kind === "tool" ? undefined : catalogue.findPrompt(exposedName));
    if (listed !== undefined) return listed.backend;
    const namespace = this.#state.codec.parse(exposedName)?.namespace;
    if (namespace === undefined || namespace === "") return undefined;
    return this.#state.config.backends.find((backend) => backend.namespace === namespace)?.name;
  }
}
