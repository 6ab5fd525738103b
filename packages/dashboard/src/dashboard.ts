import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type BearerTokenConfig, createRateLimiter } from "@patchbay/http-gateway";
import type { Router } from "@patchbay/router";
import {
  createOriginGuard,
  type OriginGuardOptions,
  refuseUpgrade,
} from "@patchbay/transport-http";
import type { CallFeed, DashboardCall } from "./call-feed.js";
import { createCatalogueReader, isBuiltInTool } from "./catalogue-reader.js";
import type { DashboardCluster, LostReplicaSource, ReplicaCounts } from "./cluster-view.js";
import {
  answerConnect,
  type ConnectEndpointOptions,
  type ConnectLinkMinter,
} from "./connect-endpoint.js";
import { createDashboardAuth, type DashboardAuth } from "./dashboard-auth.js";
import {
  answerLogin,
  isSameOrigin,
  LOGIN_STORE_UNAVAILABLE,
  serveLogin,
  writeJson,
} from "./dashboard-http.js";
import { createFeedSocket, type FeedMessage } from "./feed-socket.js";
import { answerPinApproval, type PinApprovalOptions } from "./pins-approval.js";
import type { CredentialPlaces } from "./principal-credentials.js";
import { type SessionTracker, trackRouterSessions } from "./session-tracker.js";
import { buildDashboardSnapshot, type DashboardSnapshot } from "./snapshot.js";
import { createStaticAssets } from "./static-assets.js";

/** Where the dashboard lives (its pages link to their assets there). */
export const DASHBOARD_PATH = "/dashboard";

/** Options of {@link createDashboard}. */
export interface DashboardOptions extends OriginGuardOptions {
  /** The router to show; its sessions are listed from its session events (`router.onSession`). */
  readonly router: Router;
  /** The call feed whose `sink` the router's telemetry writes to. */
  readonly feed: CallFeed;
  /** The accepted tokens (as the HTTP API's); `undefined`: no auth, as for the API. */
  readonly tokens: readonly BearerTokenConfig[] | undefined;
  /** How often open pages get a fresh snapshot. Default 5,000 ms; 0: only when a page connects. */
  readonly snapshotIntervalMs?: number;
  /** Pages connected to the live feed at once. Default 20. */
  readonly maxPages?: number;
  /** A page with this much unsent feed is disconnected. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** How long a login lasts. Default 1 hour. */
  readonly loginTtlMs?: number;
  /** Logins kept at once (in a cluster with a shared login store: across its replicas). Default 100. */
  readonly maxLogins?: number;
  /** Login attempts per client address per minute. Default 10. */
  readonly loginAttemptsPerMinute?: number;
  /** Take the client address from `X-Forwarded-For` (rate limits). Default false. */
  readonly trustProxy?: boolean;
  /** Mark the login cookie `Secure` (HTTPS in front). Default false. */
  readonly secureCookie?: boolean;
  /**
   * The cluster this process is a replica of (a `RedisCluster` from `@patchbay/cluster-redis`):
   * the page lists its replicas, and sessions and calls name the replica serving them.
   */
  readonly cluster?: DashboardCluster | undefined;
  /**
   * The replicas this one found gone and the calls it failed over (`HttpGateway.lostReplicas`):
   * the cluster panel lists them.
   */
  readonly lostReplicas?: (() => readonly LostReplicaSource[]) | undefined;
  /**
   * The proxy's credential store (its places, never values): the page shows, for each
   * per-principal backend, which principals (the tokens' names, and whoever stored something) have
   * their values stored and which do not.
   */
  readonly credentials?: CredentialPlaces | undefined;
  /**
   * Mints a login's own one-time link to a per-principal backend each user connects to or enters
   * values for (the proxy's connect and values links): the page offers "Connect" on the login's
   * own rows, through `POST <base>/api/connect`. Without it no link is offered.
   */
  readonly connectLink?: ConnectLinkMinter | undefined;
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** The dashboard: an HTTP handler for its pages and data, and the upgrade handler of its feed. */
export interface Dashboard {
  /** Whether a path belongs to the dashboard (`<base>` and below). */
  handles(pathname: string): boolean;
  handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Serves the live feed at `<base>/feed`; refuses anything else with 404. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * This process's counts for its cluster heartbeat (sessions, calls served and per minute);
   * `callsInFlight` comes from the front ends, which the dashboard does not see.
   */
  counts(): Omit<ReplicaCounts, "callsInFlight">;
  /**
   * Replaces the tokens the login takes (a config reload): logins of removed tokens stop working.
   */
  setTokens(tokens: readonly BearerTokenConfig[] | undefined): void;
  /** Closes every page's feed and the internal catalogue session. */
  close(): Promise<void>;
}

/** The login's parts; in a cluster that shares them, logins and the login rate limit hold on every replica. */
function loginEndpoints(
  options: DashboardOptions,
  basePath: string,
  assets: ReturnType<typeof createStaticAssets>,
  now: () => number,
) {
  const loginTtlMs = options.loginTtlMs ?? 60 * 60_000;
  const auth = createDashboardAuth({
    tokens: options.tokens,
    loginTtlMs,
    now,
    ...(options.maxLogins === undefined ? {} : { maxLogins: options.maxLogins }),
    ...(options.cluster?.dashboardLogins === undefined
      ? {}
      : { store: options.cluster.dashboardLogins }),
  });
  const limiterOptions = { requestsPerMinute: options.loginAttemptsPerMinute ?? 10, now };
  return {
    basePath,
    auth,
    assets,
    limiter:
      options.cluster?.createRateLimiter?.(limiterOptions) ?? createRateLimiter(limiterOptions),
    trustProxy: options.trustProxy ?? false,
    loginTtlMs,
    secureCookie: options.secureCookie ?? false,
  };
}

/**
 * A call as the page shows it: the caller (by its session), and for a `tools/call` no backend took,
 * whether the router serves that tool itself; the router's session id stays here.
 */
function describeCall(
  call: DashboardCall,
  tracker: SessionTracker,
  replica: { replica?: string },
): DashboardCall {
  const { session, ...shown } = call;
  const client = session === undefined ? undefined : tracker.callerOf(session);
  // No backend took it: the router answered it itself, unless it failed (an unknown tool, or one
  // of the router's own that this client's profile hides).
  const builtIn =
    call.backend === undefined &&
    call.method === "tools/call" &&
    call.tool !== undefined &&
    call.outcome !== "error" &&
    isBuiltInTool(call.tool);
  return {
    ...shown,
    ...(client === undefined ? {} : { client }),
    ...(builtIn ? { builtIn: true } : {}),
    ...replica,
  };
}

/**
 * The page, with its "Log out" button only when there is a login to end, marked for an operator's
 * login (its script then offers to approve withheld pins; the endpoint checks again).
 */
async function serveIndex(
  assets: ReturnType<typeof createStaticAssets>,
  response: ServerResponse,
  shown: { readonly withAuth: boolean; readonly operator: boolean; readonly principal?: string },
): Promise<void> {
  let page = await assets.text("index.html");
  if (!shown.withAuth) page = page.replace(/<!--logout-->[\s\S]*<!--\/logout-->/, "");
  if (shown.operator) page = page.replace("<body ", '<body data-operator="true" ');
  if (shown.principal !== undefined) {
    page = page.replace("<body ", `<body data-principal="${escapeAttribute(shown.principal)}" `);
  }
  return assets.serve(response, "index.html", 200, page);
}

/** `value` safe inside a double-quoted HTML attribute. */
function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The GET routes: the page's assets for anyone; the page and its snapshot for a login. */
async function answerGet(
  request: IncomingMessage,
  response: ServerResponse,
  { pathname, rest }: { readonly pathname: string; readonly rest: string },
  parts: {
    readonly assets: ReturnType<typeof createStaticAssets>;
    readonly auth: DashboardAuth;
    readonly snapshot: () => Promise<DashboardSnapshot>;
    /** Whether the page offers links to connect (`connectLink` given). */
    readonly connects: boolean;
  },
): Promise<void> {
  const { assets, auth } = parts;
  if (rest === "dashboard.css" || rest === "dashboard.js") return assets.serve(response, rest);
  let identity: Awaited<ReturnType<typeof auth.identify>>;
  try {
    identity = await auth.identify(request);
  } catch {
    return writeJson(response, 503, { error: LOGIN_STORE_UNAVAILABLE });
  }
  if (rest === "") {
    if (identity === undefined) return serveLogin(assets, response, 200, "");
    return serveIndex(assets, response, {
      withAuth: auth.enabled,
      operator: identity.operator === true,
      // Marks its own rows for "Connect" (the endpoint checks again).
      ...(auth.enabled && parts.connects ? { principal: identity.name } : {}),
    });
  }
  if (rest === "api/snapshot") {
    if (identity === undefined) return writeJson(response, 401, { error: "log in first" });
    return writeJson(response, 200, await parts.snapshot());
  }
  return writeJson(response, 404, { error: `not found: ${pathname}` });
}

/** Serves the live feed's upgrade at `<base>/feed` to a login of the same origin. */
function answerUpgrade(
  request: IncomingMessage,
  upgrade: Duplex,
  head: Buffer,
  parts: {
    readonly basePath: string;
    readonly guard: ReturnType<typeof createOriginGuard>;
    readonly auth: DashboardAuth;
    readonly socket: ReturnType<typeof createFeedSocket>;
  },
) {
  const { guard, auth, socket } = parts;
  const pathname = new URL(request.url ?? "/", "http://dashboard").pathname;
  if (pathname !== `${parts.basePath}/feed`)
    return refuseUpgrade(upgrade, { status: 404, message: "not found" });
  const rejection = guard(request);
  if (rejection) return refuseUpgrade(upgrade, { status: 403, message: rejection.message });
  if (!isSameOrigin(request))
    return refuseUpgrade(upgrade, { status: 403, message: "cross-origin request" });
  auth.identify(request).then(
    (identity) => {
      if (upgrade.destroyed) return;
      if (identity === undefined)
        return refuseUpgrade(upgrade, { status: 401, message: "log in first" });
      socket.accept(
        request,
        upgrade,
        head,
        async () => (await auth.identify(request)) !== undefined,
      );
    },
    () => {
      if (!upgrade.destroyed)
        refuseUpgrade(upgrade, { status: 503, message: LOGIN_STORE_UNAVAILABLE });
    },
  );
}

/** What the dashboard's routes answer with. */
interface DashboardRoutes {
  readonly basePath: string;
  readonly guard: ReturnType<typeof createOriginGuard>;
  readonly login: ReturnType<typeof loginEndpoints>;
  readonly socket: ReturnType<typeof createFeedSocket>;
  readonly pinApproval: PinApprovalOptions;
  readonly assets: ReturnType<typeof createStaticAssets>;
  readonly snapshot: () => Promise<DashboardSnapshot>;
  /** The Connect endpoint's parts, when the dashboard offers links (`connectLink`). */
  readonly connect?: ConnectEndpointOptions;
}

/** Routes one request: login and logout, the pins and connect endpoints, then the GET routes. */
async function routeRequest(
  request: IncomingMessage,
  response: ServerResponse,
  routes: DashboardRoutes,
): Promise<void> {
  const { basePath, login, connect } = routes;
  const rejection = routes.guard(request);
  if (rejection) return writeJson(response, 403, { error: rejection.message });
  const pathname = new URL(request.url ?? "/", "http://dashboard").pathname;
  const rest = pathname.slice(basePath.length).replace(/^\/+/, "");
  const method = request.method ?? "GET";
  if (method === "POST" && (rest === "login" || rest === "logout")) {
    await answerLogin(request, response, rest, login);
    // A logout here closes this replica's pages of that login at once.
    if (rest === "logout") routes.socket.revalidate();
    return;
  }
  if (method === "POST" && rest === "api/pins/approve") {
    return answerPinApproval(request, response, routes.pinApproval);
  }
  if (method === "POST" && rest === "api/connect" && connect !== undefined) {
    return answerConnect(request, response, connect);
  }
  if (method !== "GET" && method !== "HEAD") {
    return writeJson(response, 405, { error: `method ${method} is not allowed here` });
  }
  const parts = { assets: routes.assets, auth: login.auth, snapshot: routes.snapshot };
  return answerGet(
    request,
    response,
    { pathname, rest },
    { ...parts, connects: connect !== undefined },
  );
}

/** Creates the dashboard; see the package README for its routes and its login. */
export function createDashboard(options: DashboardOptions): Dashboard {
  const basePath = DASHBOARD_PATH;
  const now = options.now ?? Date.now;
  const guard = createOriginGuard(options);
  const catalogue = createCatalogueReader(options.router, {
    now,
    traceId: options.feed.internalTraceId,
    // A catalogue that changed (a backend's new tools, a pin approved) reaches open pages at once.
    onListChanged: () => broadcastSnapshot(),
  });
  const tracker = trackRouterSessions(options.router, {
    now,
    ignore: (sessionId) => sessionId === catalogue.sessionId,
  });
  const assets = createStaticAssets();
  const login = loginEndpoints(options, basePath, assets, now);
  const auth = login.auth;
  const counts = () => {
    const rates = options.feed.rates();
    return {
      sessions: tracker.sessions().length,
      callsServed: options.feed.served(),
      callsPerMinute: rates.callsPerMinute,
      errorsPerMinute: rates.errorsPerMinute,
    };
  };
  const replica = options.cluster === undefined ? {} : { replica: options.cluster.replicaId };
  const describe = (call: DashboardCall): DashboardCall => describeCall(call, tracker, replica);
  // The principals a credential state is shown for without anything stored: the tokens' names.
  let tokenNames = (options.tokens ?? []).map((token) => token.name);
  const credentials =
    options.credentials === undefined
      ? undefined
      : { store: options.credentials, known: () => tokenNames };
  const snapshot = () =>
    buildDashboardSnapshot({
      router: options.router,
      tools: catalogue.tools,
      sessions: tracker.sessions,
      feed: options.feed,
      cluster: options.cluster,
      ownCounts: counts,
      lostReplicas: options.lostReplicas,
      auth: auth.enabled,
      ...(credentials === undefined ? {} : { credentials }),
      now,
    });
  // Pages getting the feed, as the socket tells: each call asks this, not the socket.
  let pagesOpen = 0;
  const socket = createFeedSocket({
    maxClients: options.maxPages ?? 20,
    maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
    snapshot: async (): Promise<FeedMessage> => ({ type: "snapshot", snapshot: await snapshot() }),
    history: (): FeedMessage => ({
      type: "calls",
      calls: options.feed.recent().map(describe),
      rates: options.feed.rates(),
    }),
    onClientCount: (count) => {
      pagesOpen = count;
    },
  });
  // Every call marks its session active; its view is built (bounded, redacted) only for open pages.
  const unsubscribe = options.feed.watch((batch) => {
    for (const { session } of batch.summaries) if (session !== undefined) tracker.touch(session);
    if (pagesOpen === 0) return;
    const calls = batch.calls().map(describe);
    socket.broadcast({ type: "calls", calls, rates: options.feed.rates() });
  });
  const broadcastSnapshot = () => {
    if (socket.clientCount === 0) return;
    snapshot().then(
      (current) => socket.broadcast({ type: "snapshot", snapshot: current }),
      () => {},
    );
  };
  const pushSnapshot = () => {
    // Pages whose login ended elsewhere (another replica, expiry) lose their feed within an interval.
    socket.revalidate();
    broadcastSnapshot();
  };
  const pinApproval = {
    auth,
    router: options.router,
    onApproved: () => {
      catalogue.invalidate();
      broadcastSnapshot();
    },
  };
  const intervalMs = options.snapshotIntervalMs ?? 5_000;
  const timer = intervalMs > 0 ? setInterval(pushSnapshot, intervalMs) : undefined;
  timer?.unref();
  // A replica joining, going or leaving reaches open pages at once, not at the next interval.
  const stopHearingReplicas = options.cluster?.onReplicasChanged?.(pushSnapshot);

  const handles = (pathname: string) =>
    pathname === basePath || pathname.startsWith(`${basePath}/`);

  const routes: DashboardRoutes = {
    basePath,
    guard,
    login,
    socket,
    pinApproval,
    assets,
    snapshot,
    ...(options.connectLink === undefined
      ? {}
      : { connect: { auth, router: options.router, mint: options.connectLink } }),
  };
  const handleRequest = (request: IncomingMessage, response: ServerResponse) =>
    routeRequest(request, response, routes);

  return {
    handles,
    handleRequest,
    handleUpgrade: (request, upgrade, head) =>
      answerUpgrade(request, upgrade, head, { basePath, guard, auth, socket }),
    counts,
    setTokens: (tokens) => {
      tokenNames = (tokens ?? []).map((token) => token.name);
      auth.setTokens(tokens);
    },
    async close() {
      if (timer !== undefined) clearInterval(timer);
      stopHearingReplicas?.();
      unsubscribe();
      tracker.close();
      await socket.close();
      await catalogue.close();
    },
  };
}
