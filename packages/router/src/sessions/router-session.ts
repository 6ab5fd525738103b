import type { Implementation } from "@patchbay/client";
import {
  type Connection,
  createConnection,
  type FrameInfo,
  type JSONRPCId,
  type JSONRPCNotification,
  type Transport,
} from "@patchbay/jsonrpc-core";
import {
  createMcpConnectionHooks,
  isLoggingLevelEnabled,
  type LoggingLevel,
} from "@patchbay/mcp-types";
import { instrumentConnection } from "@patchbay/telemetry";
import type { Backend } from "../backends/backend.js";
import type { ServerRequestEvent } from "../backends/backend-events.js";
import type { BackendPool } from "../backends/backend-pool.js";
import type { PrincipalBackends } from "../backends/principal-backends.js";
import type { Catalogue } from "../catalogue/build-catalogue.js";
import { isListedAnywhere } from "../governance/listed-anywhere.js";
import type { RouterState } from "../router/router-state.js";
import type { SessionViewer } from "../router/session-viewer.js";
import { TASK_STATUS_NOTIFICATION } from "../tasks/legacy-tasks.js";
import { registerCatalogueRequests } from "./catalogue-requests.js";
import { createForwarder, type ForwardCall } from "./forward-call.js";
import { ClientRelay, type RefusalCounts } from "./relay-to-client.js";
import { routeBackendNotification } from "./route-notification.js";
import { SessionCatalogue } from "./session-catalogue.js";
import { SessionLifecycle } from "./session-lifecycle.js";
import { handleSetLevel, handleUnknownMethods, notifyRootsChanged } from "./session-requests.js";
import { SessionSubscriptions, type SubscriptionPeers } from "./session-subscriptions.js";
import { handleSessionTasks } from "./session-tasks.js";

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
  /** Who it serves (its viewer's owner); `undefined` for anonymous and the operator in process. */
  readonly principal: string | undefined;
  /** Who it serves: what `gateway_status` and `get_events` show it. */
  readonly viewer: SessionViewer;
  /** The revision agreed with the client in `initialize`. */
  readonly protocolVersion: string | undefined;
  /** The capabilities the client declared in `initialize`, once it did. */
  readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** The `clientInfo` (name, version) the client sent in `initialize`, once it did. */
  readonly clientInfo: Implementation | undefined;
  /** The logging level this client asked for with `logging/setLevel`, if any. */
  readonly logLevel: LoggingLevel | undefined;
  /** Server-to-client requests refused for this client, per backend and method. */
  readonly refused: RefusalCounts;
  /** The backends this session sees, in config order (shared ones and its own). */
  backends(): Backend[];
  /** True when the session's profile includes backend `backend`. */
  sees(backend: string): boolean;
  /** True when the client subscribed to `uri` of `backend` (the backend's own URI). */
  subscribesTo(backend: string, uri: string): boolean;
  /** The catalogue as this session sees it. */
  catalogue(): Catalogue;
  /**
   * The catalogue once it lists tool `name`, or once no backend start underway could still list
   * it (the same wait a call makes before it calls a name unknown).
   */
  catalogueListingTool(name: string): Promise<Catalogue>;
  /** Re-reads the catalogue and tells the client which lists changed. */
  refresh(): void;
  /** Relays a backend's request to this client, related to the client's call when known. */
  relay(request: ServerRequestEvent, relatedRequestId: JSONRPCId | undefined): Promise<unknown>;
  /** Sends the client a log message of the gateway's own (filtered by the client's level). */
  log(level: LoggingLevel, data: string): void;
  /** Delivers a backend notification to this client as the forwarding rules say. */
  deliver(backend: string, notification: JSONRPCNotification, relatedRequestId?: JSONRPCId): void;
  /** Stops the session's own backends and replaces changed ones after a config reload. */
  reconcile(): Promise<void>;
  close(): Promise<void>;
}

/** What a session is made with, besides its transport. */
export interface SessionDependencies {
  readonly state: RouterState;
  readonly pool: BackendPool;
  /** The instances of per-principal backends. */
  readonly principals: PrincipalBackends;
  /** The switchboard's answers about other sessions. */
  readonly peers: SubscriptionPeers & {
    logLevelFor(backend: string, owner?: string): LoggingLevel | undefined;
  };
  /** What `gateway_status` answers a session. */
  status(sessionId: string): Record<string, unknown>;
  /** What `get_events` answers a session for `query` (throws on a bad query). */
  events(sessionId: string, query: Readonly<Record<string, unknown>>): unknown;
  /**
   * The session accepted the client's `initialize` (deferred shared backends may start now);
   * `info` is how that request arrived.
   */
  onInitialize(session: RouterSession, info: FrameInfo): void;
  /** The session ended. */
  onClose(sessionId: string): void;
}

/**
 * Serves one client over `transport`: a short composition of its handshake, its view of the
 * catalogue, forwarding, subscriptions, logging and the relay of backends' requests.
 */
export function createRouterSession(
  id: string,
  transport: Transport,
  deps: SessionDependencies,
  profileName: string | undefined,
  viewer: SessionViewer,
  mcpSessionId?: string,
  /** The session behind a modern (2026-07-28) front, whose requests carry the client's `_meta`. */
  modernFront = false,
): RouterSession {
  const { state, peers } = deps;
  const base = createConnection(transport, { ...createMcpConnectionHooks(), defaultTimeoutMs: 0 });
  const connection = instrumentConnection(base, state.telemetry, {
    source: "gateway",
    session: id,
    // Metric labels name only tools the catalogue exposes: made-up names cannot fill the label sets.
    knownTool: (name) => view.exposesTool(name),
    protocolVersion: () => lifecycle.protocolVersion,
    ...(state.clientNetworkTransport === undefined
      ? {}
      : { networkTransport: state.clientNetworkTransport }),
    ...(mcpSessionId === undefined ? {} : { mcpSessionId }),
  });
  const principal = principalOf(viewer);
  const view = new SessionCatalogue(id, profileName, {
    state,
    pool: deps.pool,
    connection,
    principals: deps.principals,
    principal,
  });
  const subscriptions = new SessionSubscriptions(id, view, peers);
  const forward = createForwarder(id, connection, view, state, modernFront);
  let logLevel: LoggingLevel | undefined;
  let closed = false;

  const lifecycle = new SessionLifecycle(connection, view, state, {
    initializeReceived(info) {
      view.startEager(false);
      deps.onInitialize(session, info);
    },
    async initialized() {
      view.startAnnouncing();
      // Backends that asked for roots before this client came may ask again now.
      if (lifecycle.clientCapabilities?.roots !== undefined) await notifyRootsChanged(view);
    },
  });
  const relay = new ClientRelay(connection, state, () => lifecycle.clientCapabilities);

  const abandonTasks = registerSessionHandlers(
    { id, profileName, viewer, connection, lifecycle, view, forward, subscriptions, relay },
    deps,
    (level) => {
      logLevel = level;
    },
  );

  connection.onClose(() => {
    closed = true;
    view.stopAnnouncing();
    deps.onClose(id);
    if (!state.closing) subscriptions.release();
    abandonTasks();
    view.stopOwn();
  });

  const session: RouterSession = {
    id,
    connection,
    get initialized() {
      return lifecycle.initialized;
    },
    profile: profileName,
    principal,
    viewer,
    subscriptions: subscriptions.uris,
    get protocolVersion() {
      return lifecycle.protocolVersion;
    },
    get logLevel() {
      return logLevel;
    },
    get clientCapabilities() {
      return lifecycle.clientCapabilities;
    },
    get clientInfo() {
      return lifecycle.clientInfo;
    },
    refused: relay.refused,
    backends: () => view.backends(),
    sees: (backend) => view.sees(backend),
    subscribesTo: (backend, uri) => subscriptions.has(backend, uri),
    catalogue: () => view.current(),
    async catalogueListingTool(name) {
      await view.lookUp((catalogue) => catalogue.findTool(name));
      return view.current();
    },
    refresh: () => view.refresh(),
    relay: (request, relatedRequestId) =>
      relay.relay(
        request,
        relatedRequestId,
        view.findBackend(request.backend)?.config.maxTimeoutMs ?? 0,
      ),
    log(level, data) {
      if (!lifecycle.initialized || closed || !isLoggingLevelEnabled(level, logLevel)) return;
      connection
        .notify("notifications/message", { level, logger: "patchbay-gateway", data })
        .catch(() => {});
    },
    deliver(backend, notification, relatedRequestId) {
      if (!lifecycle.initialized || closed) return;
      const routed = routeBackendNotification(backend, notification, {
        logLevel,
        subscriptions: subscriptions.uris,
        exposeResourceUri: (uri) => view.current().exposeResourceUri(backend, uri),
      });
      if (!routed) return;
      const options = relatedRequestId === undefined ? undefined : { relatedRequestId };
      connection.notify(routed.method, routed.params, options).catch(() => {});
    },
    async reconcile() {
      await view.reconcileOwn();
      if (lifecycle.initialized) view.startEager(true);
      view.refresh();
    },
    close: () => connection.close(),
  };
  return session;
}

/** The parts of one session that its request handlers use. */
interface SessionParts {
  readonly id: string;
  readonly profileName: string | undefined;
  readonly viewer: SessionViewer;
  readonly connection: Connection;
  readonly lifecycle: SessionLifecycle;
  readonly view: SessionCatalogue;
  readonly forward: ForwardCall;
  readonly subscriptions: SessionSubscriptions;
  readonly relay: ClientRelay;
}

/**
 * What the session answers: the catalogue's requests, the log level, tasks, the roots
 * notification, and anything else forwarded to its backend. Returns what abandons the session's
 * tasks when it ends.
 */
function registerSessionHandlers(
  parts: SessionParts,
  deps: SessionDependencies,
  setLogLevel: (level: LoggingLevel) => void,
): () => void {
  const { id, connection, lifecycle, view, forward, relay } = parts;
  const { state } = deps;
  registerCatalogueRequests({
    lifecycle,
    view,
    forward,
    subscriptions: parts.subscriptions,
    state,
    status: () => deps.status(id),
    events: (query) => deps.events(id, query),
    who: { principal: parts.viewer.owner ?? "anonymous", session: id, profile: parts.profileName },
    listedAnywhere: (name) =>
      isListedAnywhere(name, [...deps.pool.sharedBackends(), ...view.backends()], state.codec),
  });
  handleSetLevel(id, lifecycle, view, deps.peers, setLogLevel);
  const abandonTasks = handleSessionTasks(id, lifecycle, view, state, {
    tell(task) {
      connection.notify(TASK_STATUS_NOTIFICATION, task).catch(() => {});
    },
    ask: ([backend, method, params, signal], relatedRequestId) =>
      relay.ask(backend, method, params, {
        signal,
        timeoutMs: view.findBackend(backend)?.config.maxTimeoutMs ?? 0,
        relatedRequestId,
      }),
  });
  handleUnknownMethods(lifecycle, view, forward);
  connection.handleNotification("notifications/roots/list_changed", () => notifyRootsChanged(view));
  return abandonTasks;
}

/** The principal a viewer's sessions act as toward per-principal backends (never `anonymous`). */
function principalOf(viewer: SessionViewer): string | undefined {
  const owner = viewer.owner;
  return owner === undefined || owner === "anonymous" ? undefined : owner;
}
