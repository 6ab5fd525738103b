import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import {
  createBackendTransportFactory,
  createPrincipalConnect,
  createPrincipalValues,
  type PrincipalConnect,
  type PrincipalValues,
} from "@patchbay/backend-transports";
import type { RedisCluster } from "@patchbay/cluster-redis";
import { createCallFeed, createDashboard, type Dashboard } from "@patchbay/dashboard";
import {
  createHttpGateway,
  decideAuth,
  type HttpGateway,
  isLoopbackHost,
  type LogFormat,
  type ParsedProxyConfig,
  parseProxyConfig,
  resolveLimits,
} from "@patchbay/http-gateway";
import type { Transport } from "@patchbay/jsonrpc-core";
import {
  type BackendConfig,
  connectsPerPrincipal,
  createBackendLogSink,
  createRouter,
  type PinStore,
  type PinsConfig,
  type Router,
  setByUser,
} from "@patchbay/router";
import type { CredentialStorePlace } from "@patchbay/router/config-file";
import { createFilePinStore, pinFileOf } from "@patchbay/router/pins-file";
import { createRedactor, type Redactor } from "@patchbay/telemetry";
import { demoConfig } from "./demo-config.js";
import { openProxyAudit } from "./proxy-audit.js";
import { followSharedPins, joinProxyCluster, reportReplicaCounts } from "./proxy-cluster.js";
import {
  openClusterCredentials,
  type ProxyCredentials,
  proxyCredentialStore,
  watchProxyCredentials,
} from "./proxy-credentials.js";
import { createProxyFront } from "./proxy-front.js";
import { createProxyLog, type ProxyLog } from "./proxy-log.js";
import {
  authSecrets,
  loadProxyConfigFile,
  routerPart,
  startOAuth,
  startReloading,
} from "./proxy-reload.js";
import { callFeedSink, createProxyTelemetry } from "./proxy-telemetry.js";
import { startupBanner } from "./startup-banner.js";

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  /** The config file; without one the bundled demo (the sample backend) runs. */
  readonly configPath?: string;
  /** Address to bind. Default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  readonly port?: number;
  readonly logFormat?: LogFormat;
  /** Where `${VAR}` come from. Default `process.env`. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Log lines (stderr by default). */
  readonly writeLog?: (line: string) => void;
  /** The start-up banner (stdout by default). */
  readonly print?: (text: string) => void;
  readonly version: string;
  /** Sees every backend transport the proxy opens (tests watch per-session backends stop). */
  readonly onBackendTransport?: (backend: BackendConfig, transport: Transport) => void;
  /** Redis shared by replicas (`--redis`); overrides the config's `cluster.redis`. */
  readonly redis?: string;
  /** This replica's id (`--replica-id`); overrides the config's `cluster.replicaId`. */
  readonly replicaId?: string;
  /** Reload the config file whenever it changes (`--watch`). Default false. */
  readonly watchConfig?: boolean;
}

/** A running proxy. */
export interface RunningProxy {
  /** The default endpoint, `http://host:port/mcp`. */
  readonly url: URL;
  readonly router: Router;
  /** The HTTP API, and MCP over WebSocket at `/ws` and `/ws/<profile>`. */
  readonly gateway: HttpGateway;
  /** The dashboard at `/dashboard`. */
  readonly dashboard: Dashboard;
  readonly server: Server;
  readonly log: ProxyLog;
  /**
   * Reads the config file again and applies it (`SIGHUP`, `--watch`): see `createProxyReload`.
   * Resolves true when applied, false when refused (the running config keeps serving) or when the
   * proxy runs the demo (no file).
   */
  reload(): Promise<boolean>;
  /** Graceful stop: refuse new work, drain in-flight calls up to the deadline, stop backends. */
  stop(options?: { readonly drainTimeoutMs?: number }): Promise<void>;
}

/** Loads the config, starts the backends and serves the HTTP endpoints. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  // A config error (or a per-principal backend without its store) stops the start here.
  const settings = await resolveProxySettings(options);
  const { parsed, log, redact, host } = settings;
  const resolvedLimits = resolveLimits(parsed.config.limits);
  const cluster = await joinClusterOf(options, settings, resolvedLimits.sessionIdleTtlMs);
  // Where browsers reach the proxy, for connect links: known once it listens, unless configured.
  let origin = parsed.config.credentials?.publicUrl;
  const started = await startProxyRouter(options, parsed.config, {
    log,
    redact,
    cluster,
    maxResultBytes: resolvedLimits.maxResultBytes,
    storePlace: settings.storePlace,
    origin: () => origin ?? "http://127.0.0.1",
  });
  const { router } = started;
  const { dashboard, gateway, server } = await serveProxy(settings, { ...started, cluster });
  const reloading = startReloading(options.configPath, options.watchConfig === true, {
    environment: settings.environment,
    host,
    router,
    gateway,
    dashboard,
    log,
    redact,
    initial: { config: parsed.config, oauth: settings.oauth },
  });
  const stop = proxyStopper({ ...started, reloading, server, gateway, dashboard, cluster });
  // A port in use (EADDRINUSE, with its address and port) stops what started, then rejects.
  await listen(server, options.port ?? 8080, host).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const url = announce(options, settings, server);
  origin ??= url.origin;
  return { url, router, gateway, dashboard, server, log, reload: reloading.reload, stop };
}

/**
 * What the options and the config settle before anything starts: the parsed config, the credential
 * store's place, the auth decision (its OAuth verifier started), and the log with its masking.
 */
interface ProxySettings {
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly host: string;
  readonly parsed: ParsedProxyConfig;
  /** The Redis replicas share (`--redis` over `cluster.redis`), when clustered. */
  readonly clusterRedis: string | undefined;
  readonly clusterSecret: string | undefined;
  readonly storePlace: CredentialStorePlace | undefined;
  readonly decision: ReturnType<typeof decideAuth>;
  readonly oauth: Awaited<ReturnType<typeof startOAuth>> | undefined;
  readonly redact: Redactor;
  readonly log: ProxyLog;
}

/** Loads the config (the demo without a file) and settles {@link ProxySettings}; logs its warnings. */
async function resolveProxySettings(options: ProxyOptions): Promise<ProxySettings> {
  const environment = options.environment ?? process.env;
  const host = options.host ?? "127.0.0.1";
  const parsed: ParsedProxyConfig =
    options.configPath === undefined
      ? parseProxyConfig(demoConfig(), { source: "(demo)" })
      : await loadProxyConfigFile(resolve(options.configPath), environment);
  const clusterRedis = options.redis ?? parsed.config.cluster?.redis;
  // Before anything starts: a per-principal backend without a store or its key stops the start.
  const storePlace = proxyCredentialStore(options.configPath, parsed.config, environment, {
    clustered: clusterRedis !== undefined,
  });
  const decision = decideAuth(parsed.config.auth, host);
  const oauth =
    decision.oauth === undefined
      ? undefined
      : await startOAuth(decision.oauth, Object.keys(parsed.config.profiles));
  const clusterSecret = parsed.config.cluster?.secret ?? environment.PATCHBAY_CLUSTER_SECRET;
  const redact = createRedactor({
    secretValues: [...authSecrets(parsed.config, oauth), ...(clusterSecret ? [clusterSecret] : [])],
  });
  const log = createProxyLog(options.logFormat ?? "pretty", redact, options.writeLog);
  for (const warning of parsed.warnings) log.warn(warning);
  if (decision.notice) log.warn(decision.notice);
  return {
    environment,
    host,
    parsed,
    clusterRedis,
    clusterSecret,
    storePlace,
    decision,
    oauth,
    redact,
    log,
  };
}

/** Joins the replicas' Redis when clustered (`--replica-id` over `cluster.replicaId`). */
async function joinClusterOf(
  options: ProxyOptions,
  settings: ProxySettings,
  sessionIdleTtlMs: number,
): Promise<RedisCluster | undefined> {
  if (settings.clusterRedis === undefined) return undefined;
  return joinProxyCluster(
    {
      ...settings.parsed.config.cluster,
      redis: settings.clusterRedis,
      secret: settings.clusterSecret,
      ...(options.replicaId === undefined ? {} : { replicaId: options.replicaId }),
    },
    sessionIdleTtlMs,
    settings.log,
  );
}

/**
 * The dashboard, the HTTP gateway and the server in front of both (not listening yet); in a
 * cluster, this replica's counts reported to the others.
 */
async function serveProxy(
  settings: ProxySettings,
  parts: Pick<StartedRouter, "router" | "feed" | "audit" | "credentials" | "connect" | "values"> & {
    readonly cluster: RedisCluster | undefined;
  },
): Promise<{ dashboard: Dashboard; gateway: HttpGateway; server: Server }> {
  const { host, decision, oauth, log } = settings;
  const { limits, http } = settings.parsed.config;
  const { router, audit, cluster } = parts;
  const originLists = originListsOf(http, host);
  const trustProxy = http?.trustProxy ?? false;
  // The dashboard lists the router's sessions from its session events. In a cluster,
  // its logins and login attempts are shared through Redis (`cluster.dashboardLogins`, the
  // cluster's rate limiter), so a login holds on every replica behind the balancer.
  const dashboard = createDashboard({
    router,
    feed: parts.feed,
    // Its login takes a static token allowed every profile: with OAuth alone, nobody logs in
    // (closed, never open).
    tokens: decision.tokens ?? (oauth === undefined ? undefined : []),
    ...originLists,
    trustProxy,
    secureCookie: http?.secureCookie ?? false,
    cluster,
    // Read once the page asks for a snapshot; the gateway exists by then.
    lostReplicas: () => gateway.lostReplicas(),
    credentials: parts.credentials,
    connectLink: connectLinkOf(router, parts.connect, parts.values),
  });
  const gateway = createHttpGateway({
    router,
    ...(decision.tokens === undefined ? {} : { tokens: decision.tokens }),
    ...(oauth === undefined ? {} : { oauth }),
    ...(limits === undefined ? {} : { limits }),
    ...originLists,
    trustProxy,
    ...(http?.keepAliveIntervalMs === undefined
      ? {}
      : { keepAliveIntervalMs: http.keepAliveIntervalMs }),
    // Bound, not wrapped: a request's log line runs no function of this file.
    onLog: log.request.bind(log),
    ...(audit === undefined ? {} : { audit }),
    index: { title: "patchbay-proxy", dashboardPath: "/dashboard" },
    ...(cluster === undefined ? {} : { cluster, onWarning: (message) => log.warn(message) }),
  });
  if (cluster !== undefined) {
    await reportReplicaCounts(cluster, router.telemetry.registry, () => ({
      ...dashboard.counts(),
      callsInFlight: gateway.pendingRequests,
    }));
  }
  const { connect, values } = parts;
  const front = createProxyFront({ gateway, dashboard, log, connect, values });
  const server = createServer(front.onRequest);
  server.on("upgrade", front.onUpgrade);
  // Idle keep-alive connections outlive a load balancer's (60 s is common) and a client's pool,
  // so a client never sends on a connection the proxy is closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return { dashboard, gateway, server };
}

/**
 * The proxy's graceful stop, run once however often called: reload, links and store closed, the
 * server refusing new connections, in-flight calls drained, then the rest stopped in turn.
 */
function proxyStopper(
  parts: Omit<StartedRouter, "feed"> & {
    readonly reloading: { close(): void };
    readonly server: Server;
    readonly gateway: HttpGateway;
    readonly dashboard: Dashboard;
    readonly cluster: RedisCluster | undefined;
  },
): RunningProxy["stop"] {
  const { server, gateway } = parts;
  let stopping: Promise<void> | undefined;
  return (stopOptions = {}) => {
    stopping ??= (async () => {
      parts.reloading.close();
      parts.connect?.close();
      parts.values?.close();
      parts.credentials?.close();
      const closed = new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
      server.closeIdleConnections();
      await gateway.close(stopOptions);
      await parts.dashboard.close();
      await parts.router.close();
      await parts.audit?.flush();
      await parts.cluster?.close();
      server.closeAllConnections();
      await closed;
      await parts.telemetry.close();
    })();
    return stopping;
  };
}

/** The listening proxy's `/mcp` URL, logged and shown in the start-up banner. */
function announce(options: ProxyOptions, settings: ProxySettings, server: Server): URL {
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = new URL(`http://${shownHost}:${address.port}/mcp`);
  settings.log.info(`listening on ${url.href}`);
  (options.print ?? ((text) => process.stdout.write(text)))(
    startupBanner(
      url,
      Object.keys(routerPart(settings.parsed.config).profiles),
      settings.decision.tokens !== undefined,
      settings.oauth?.config.issuers,
    ),
  );
  return url;
}

/**
 * The router of the proxy and what it reports to: the call feed the dashboard shows, the telemetry
 * (backend state changes logged), the audit log; started, its backends coming up.
 */
async function startProxyRouter(
  options: ProxyOptions,
  config: ParsedProxyConfig["config"],
  parts: {
    readonly log: ProxyLog;
    readonly cluster: RedisCluster | undefined;
    readonly maxResultBytes: number;
    /** The log's masking, which learns the credential store's values. */
    readonly redact: Redactor;
    /** The credential store of per-principal backends, when the config has any. */
    readonly storePlace: CredentialStorePlace | undefined;
    /** The origin of the proxy's connect links. */
    readonly origin: () => string;
  },
) {
  const { log, cluster } = parts;
  const routerConfig = routerPart(config);
  const feed = createCallFeed();
  // Backends running, down (why, and their last stderr lines), restarting or given up: logged.
  const telemetry = await createProxyTelemetry(
    routerConfig.telemetry,
    options.configPath,
    log,
    [callFeedSink(feed.sink), createBackendLogSink(log)],
    options.version,
  );
  const audit = openProxyAudit(config.audit, options.configPath, telemetry, log);
  // Its values are masked like the config's secrets, should a backend print one on stderr.
  const mask = (values: readonly string[]) => {
    parts.redact.addSecretValues(values);
    telemetry.addSecrets(values);
  };
  // Per-principal backends: their store, connect links and values pages.
  let router: Router | undefined;
  const { credentials, principalConnect, principalValues } = await openPrincipalCredentials({
    ...parts,
    mask,
    backends: () => router?.config.backends ?? [],
  });
  // The router never sees auth, limits or http: gateway_status shows its config to clients.
  router = createRouter({
    config: routerConfig,
    connect: backendConnector(options, log, parts.maxResultBytes, principalConnect),
    serverInfo: { name: "patchbay-proxy", version: options.version },
    telemetry,
    onWarning: (message) => log.warn(message),
    ...(audit === undefined ? {} : { audit }),
    clientNetworkTransport: "tcp",
    ...(credentials === undefined
      ? {}
      : {
          credentials: {
            valuesFor: credentials.valuesFor,
            ...(principalConnect === undefined ? {} : { connectUrl: principalConnect.connectUrl }),
            ...(principalValues === undefined ? {} : { valuesUrl: principalValues.valuesUrl }),
          },
        }),
    ...pinStoreOf(options.configPath, routerConfig.pins, cluster),
    // The file's `modern` block; replicas add one request-state key, held calls and list changes
    // shared (see proxy-cluster.ts), and limits.tools' perMinute counted in Redis (concurrent
    // stays each replica's).
    modern: {
      ...routerConfig.modern,
      ...(cluster === undefined ? {} : await cluster.modernFrontOptions()),
    },
    ...(cluster === undefined
      ? {}
      : { sharedToolLimits: (limits) => cluster.createRateLimiter(limits) }),
  });
  if (cluster !== undefined) followSharedPins(cluster, router, log);
  await router.start().catch((error: unknown) => {
    principalConnect?.close();
    principalValues?.close();
    credentials?.close();
    throw error;
  });
  return {
    feed,
    telemetry,
    audit,
    router,
    credentials,
    connect: principalConnect,
    values: principalValues,
  };
}

/**
 * A principal's link to a per-principal backend, for the dashboard's "Connect": the OAuth connect
 * link of a backend with an `oauth` block, the values link of one with `credentials.setByUser`.
 */
function connectLinkOf(
  router: Router,
  connect: PrincipalConnect | undefined,
  values: PrincipalValues | undefined,
): ((principal: string, backend: string) => string | undefined) | undefined {
  if (connect === undefined && values === undefined) return undefined;
  return (principal, name) => {
    const backend = router.config.backends.find((candidate) => candidate.name === name);
    if (backend === undefined) return undefined;
    if (connectsPerPrincipal(backend)) return connect?.connectUrl(principal, name);
    return setByUser(backend) ? values?.valuesUrl(principal, name) : undefined;
  };
}

/**
 * How the proxy opens a backend's transport: lines up to a result of limits.maxResultBytes and its
 * envelope (unless a backend says otherwise), stderr logged, per-principal OAuth tokens; each
 * transport shown to `onBackendTransport`.
 */
function backendConnector(
  options: ProxyOptions,
  log: ProxyLog,
  maxResultBytes: number,
  principalConnect: PrincipalConnect | undefined,
): Parameters<typeof createRouter>[0]["connect"] {
  const connect = createBackendTransportFactory({
    maxLineBytes: maxResultBytes + 1024 * 1024,
    onStderr: (backend, line) => log.info(`[${backend}] ${line}`),
    ...(principalConnect === undefined
      ? {}
      : {
          principalOAuth: {
            tokenStore: principalConnect.tokenStore,
            connectHint: (backend) =>
              `not connected to ${backend}: call one of its tools for a connect link`,
          },
        }),
  });
  return async (backend, context) => {
    const transport = await connect(backend, context);
    options.onBackendTransport?.(backend, transport);
    return transport;
  };
}

type StartedRouter = Awaited<ReturnType<typeof startProxyRouter>>;

/**
 * The credential store of per-principal backends (none without one) and its pages: in a cluster,
 * the store, links and sign-ins underway are shared through Redis.
 */
async function openPrincipalCredentials(parts: {
  readonly log: ProxyLog;
  readonly cluster: RedisCluster | undefined;
  readonly storePlace: CredentialStorePlace | undefined;
  readonly origin: () => string;
  /** Masks the store's values in the log and the telemetry. */
  readonly mask: (values: readonly string[]) => void;
  /** The router's backends, read when a link or page is asked for. */
  readonly backends: () => readonly BackendConfig[];
}): Promise<{
  credentials: ProxyCredentials | undefined;
  principalConnect: PrincipalConnect | undefined;
  principalValues: PrincipalValues | undefined;
}> {
  const { log, cluster, storePlace, origin, backends } = parts;
  const credentials: ProxyCredentials | undefined =
    cluster !== undefined && storePlace !== undefined
      ? await openClusterCredentials(cluster, storePlace, log, parts.mask)
      : watchProxyCredentials(storePlace, log, parts.mask);
  const flows =
    cluster !== undefined && storePlace !== undefined
      ? await cluster.openConnectFlows(storePlace.key)
      : undefined;
  if (credentials === undefined) {
    return { credentials, principalConnect: undefined, principalValues: undefined };
  }
  // Per-principal backends with an `oauth` block: each principal connects on a link of its own.
  const principalConnect = createPrincipalConnect({
    origin,
    backends,
    store: credentials,
    ...(flows === undefined ? {} : { flows }),
    onConnected: (principal, backend) => log.info(`${principal} connected to ${backend}`),
  });
  // Per-principal backends with `credentials.setByUser`: each principal enters its own values.
  const principalValues = createPrincipalValues({
    origin,
    backends,
    store: credentials,
    ...(flows === undefined ? {} : { flows }),
    onSaved: (principal, backend) => log.info(`${principal} stored values for ${backend}`),
  });
  return { credentials, principalConnect, principalValues };
}

/**
 * The Host and Origin lists of the HTTP endpoints and the dashboard: bound to loopback, only
 * loopback names unless `http` says otherwise; bound elsewhere, any Host by default.
 */
function originListsOf(
  http: ParsedProxyConfig["config"]["http"],
  host: string,
): { allowedHosts?: readonly string[] | "any"; allowedOrigins?: readonly string[] | "any" } {
  return {
    ...(http?.allowedHosts === undefined
      ? isLoopbackHost(host)
        ? {}
        : { allowedHosts: "any" as const }
      : { allowedHosts: http.allowedHosts }),
    ...(http?.allowedOrigins === undefined ? {} : { allowedOrigins: http.allowedOrigins }),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolvePromise();
    });
  });
}

/**
 * The replicas' pins in Redis when clustered; else beside the config file (or where its `pins.file`
 * says); the demo keeps them in memory.
 */
function pinStoreOf(
  configPath: string | undefined,
  pins: PinsConfig | undefined,
  cluster: { readonly pins: PinStore } | undefined,
) {
  if (cluster !== undefined) return { pinStore: cluster.pins };
  if (configPath === undefined) return {};
  return { pinStore: createFilePinStore(pinFileOf(resolve(configPath), pins)) };
}
