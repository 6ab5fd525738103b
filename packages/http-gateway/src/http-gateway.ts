import type { IncomingMessage, ServerResponse } from "node:http";
import { isLegacyProtocolVersion } from "@patchbay/mcp-types";
import { PROMETHEUS_CONTENT_TYPE } from "@patchbay/telemetry";
import {
  createOriginGuard,
  headerValue,
  type StreamableHttpHandler,
  systemClock,
  writeJsonBody,
  writeJsonError,
} from "@patchbay/transport-http";
import { admit, isRefusal, type Refusal } from "./admission/admission.js";
import { createRateLimiter } from "./admission/rate-limiter.js";
import { createTokenAuthenticator, type TokenIdentity } from "./admission/token-auth.js";
import { backendOfName } from "./backend-of-name.js";
import type { GatewayCluster } from "./cluster/cluster.js";
import { registerClusterMetrics } from "./cluster/cluster-metrics.js";
import { type ClusterSessions, createClusterSessions } from "./cluster/cluster-sessions.js";
import { answerOrphanedCalls } from "./cluster/orphaned-calls.js";
import { sseForwardingOf } from "./cluster/sse-forwarding.js";
import { type GatewayRoute, parseGatewayPath } from "./endpoints/gateway-path.js";
import { answerPlainPost } from "./endpoints/plain-post.js";
import { readiness } from "./endpoints/readiness.js";
import type { GatewayLogEntry } from "./gateway-log.js";
import { createGatewayMetrics } from "./gateway-metrics.js";
import {
  type HttpGatewayOptions,
  type ResolvedLimits,
  resolveLimits,
} from "./http-gateway-options.js";
import type { FrontRequestEnd } from "./session/front-guard.js";
import { createSessionEndpoints } from "./session/session-endpoints.js";

type McpRoute = Extract<GatewayRoute, { kind: "mcp" | "sse" | "messages" }>;

/** Options of {@link HttpGateway.close}. */
export interface HttpGatewayCloseOptions {
  /** How long in-flight requests may take to finish before streams are ended. Default 10 s. */
  readonly drainTimeoutMs?: number;
}

/** A node:http request listener serving a router at `/mcp`, `/sse`, health and metrics paths. */
export interface HttpGateway {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Open client sessions (Streamable HTTP and SSE). */
  readonly sessionCount: number;
  /** JSON-RPC requests received and not yet answered. */
  readonly pendingRequests: number;
  /**
   * Stops taking new sessions and requests (503), lets requests in flight finish up to the drain
   * timeout, then ends every stream and session. The router is left to its owner to close.
   */
  close(options?: HttpGatewayCloseOptions): Promise<void>;
}

/** Creates the HTTP gateway: see the package README for every endpoint and answer. */
export function createHttpGateway(options: HttpGatewayOptions): HttpGateway {
  const { router } = options;
  const limits = resolveLimits(options.limits);
  const clock = options.clock ?? systemClock;
  const log = options.onLog ?? (() => {});
  const identities = new WeakMap<IncomingMessage, TokenIdentity>();
  const metrics = createGatewayMetrics(router.telemetry.registry, () => endpoints.sessionCount);
  const cluster = options.cluster;
  const shared = cluster && createClusterSessions({ cluster, ...clusterTimes(options, limits) });
  if (cluster && shared) registerClusterMetrics(router.telemetry.registry, cluster, shared);
  const endpoints = createSessionEndpoints({
    router,
    limits,
    clock,
    eventStore: cluster?.eventStore,
    wrapSession: shared?.wrap,
    sseForwarding: sseForwardingOf(cluster, limits.maxBodyBytes, options.onWarning),
    modernRelay: cluster?.modern,
    ...(options.keepAliveIntervalMs === undefined
      ? {}
      : { keepAliveIntervalMs: options.keepAliveIntervalMs }),
    identityOf: (request) => identities.get(request),
    onRequestEnd(end, profile, owner) {
      metrics.rpc(end.method, end.status);
      log(rpcLogEntry(router, end, profile, owner));
    },
  });
  const admission = {
    guard: createOriginGuard(options),
    limiter: (cluster?.createRateLimiter ?? createRateLimiter)({
      requestsPerMinute: limits.requestsPerMinute,
      now: () => clock.now(),
    }),
    requestsPerMinute: limits.requestsPerMinute,
    authenticator:
      options.tokens === undefined ? undefined : createTokenAuthenticator(options.tokens),
    trustProxy: options.trustProxy ?? false,
    ownerOf: endpoints.ownerOf,
  };
  let closing: Promise<void> | undefined;

  const gateway = async (request: IncomingMessage, response: ServerResponse) => {
    const startedAt = clock.now();
    const url = new URL(request.url ?? "/", "http://gateway");
    const refuse = (refusal: Refusal) => {
      writeJsonError(
        response,
        refusal.status,
        refusal.code ?? -32000,
        refusal.message,
        refusal.headers,
      );
      metrics.refused(refusal.status, refusal.limitedBy);
      log({
        kind: "http",
        method: request.method ?? "",
        path: url.pathname,
        status: refusal.status,
        durationMs: clock.now() - startedAt,
        message: refusal.message,
      });
    };
    const route = parseGatewayPath(url.pathname);
    if (route === undefined) return refuse({ status: 404, message: `not found: ${url.pathname}` });
    if (!("profile" in route)) {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return refuse(methodNotAllowed(request, "GET, HEAD"));
      }
      return serveOperational(router, route.kind, response, cluster);
    }
    if (route.profile !== undefined && !(route.profile in router.config.profiles)) {
      return refuse({ status: 404, message: `unknown profile: ${route.profile}` });
    }
    const sessionId =
      route.kind === "messages"
        ? (url.searchParams.get("sessionId") ?? undefined)
        : headerValue(request, "mcp-session-id");
    // While draining, only sessions already open may go on (answers to sampling, say).
    if (closing && (sessionId === undefined || endpoints.ownerOf(sessionId) === undefined)) {
      return refuse({ status: 503, message: "the gateway is shutting down" });
    }
    const admitted = await admit(request, route.profile, sessionId, admission);
    if (isRefusal(admitted)) return refuse(admitted);
    identities.set(request, admitted);
    if (cluster && shared && route.kind === "mcp" && sessionId !== undefined) {
      const handler = endpoints.streamable(route.profile);
      const step = { cluster, shared, handler, sessionId, identity: admitted, request, response };
      const outcome = await prepareSharedSession(step, route.profile);
      if (outcome === "answered") return;
      if (outcome !== undefined) return refuse(outcome);
    }
    const refusal = await dispatch(route, request, response, admitted, sessionId);
    if (refusal) refuse(refusal);
    else if (request.method === "GET" && route.kind === "mcp")
      await shared?.heldGetStream(sessionId);
  };

  async function dispatch(
    route: McpRoute,
    request: IncomingMessage,
    response: ServerResponse,
    identity: TokenIdentity,
    sessionId: string | undefined,
  ): Promise<Refusal | undefined> {
    const post = request.method === "POST";
    if (route.kind === "sse" && request.method !== "GET") return methodNotAllowed(request, "GET");
    if (route.kind === "messages" && !post) return methodNotAllowed(request, "POST");
    if (
      route.kind === "mcp" &&
      post &&
      sessionId === undefined &&
      !namesEventStream(headerValue(request, "accept"))
    ) {
      return answerPlainPost(request, response, {
        endpoint: endpoints.plain(route.profile, identity),
        maxBodyBytes: limits.maxBodyBytes,
      });
    }
    // A modern (2026-07-28) POST opens no session: it never counts against maxSessions.
    const opensSession =
      route.kind === "sse" ||
      (route.kind === "mcp" && post && sessionId === undefined && !isModernPost(request));
    const full =
      opensSession && refuseNewSession(cluster, endpoints.sessionCount, limits.maxSessions);
    if (full) return full;
    if (route.kind === "mcp") await endpoints.streamable(route.profile)(request, response);
    else await endpoints.sse(route.profile)(request, response);
    return undefined;
  }

  function close(closeOptions: HttpGatewayCloseOptions = {}): Promise<void> {
    closing ??= (async () => {
      let timer: unknown;
      const deadline = new Promise<void>((resolve) => {
        timer = clock.setTimeout(resolve, closeOptions.drainTimeoutMs ?? 10_000);
      });
      await Promise.race([endpoints.idle(), deadline]);
      clock.clearTimeout(timer);
      await endpoints.close();
      shared?.close();
    })();
    return closing;
  }

  return Object.defineProperties(gateway, {
    sessionCount: { get: () => endpoints.sessionCount },
    pendingRequests: { get: () => endpoints.pendingRequests },
    close: { value: close },
  }) as HttpGateway;
}

/** Why a new session cannot open now (shared store down, or `maxSessions` reached), if it cannot. */
function refuseNewSession(
  cluster: HttpGatewayOptions["cluster"],
  sessionCount: number,
  maxSessions: number,
): Refusal | undefined {
  if (cluster !== undefined && !cluster.available) return storeUnavailable();
  if (sessionCount < maxSessions) return undefined;
  return {
    status: 503,
    message: `the gateway serves its maximum of ${maxSessions} sessions`,
    headers: { "retry-after": "5" },
  };
}

/** A POST naming a protocol revision that is not a legacy one (the transport's modern path). */
function isModernPost(request: IncomingMessage): boolean {
  const version = headerValue(request, "mcp-protocol-version");
  return version !== undefined && !isLegacyProtocolVersion(version);
}

/** `/healthz` (alive), `/readyz` (backends up) and `/metrics` (Prometheus text). */
function serveOperational(
  router: HttpGatewayOptions["router"],
  kind: "healthz" | "readyz" | "metrics",
  response: ServerResponse,
  cluster: GatewayCluster | undefined,
) {
  if (kind === "healthz") return writeJsonBody(response, 200, { status: "ok" });
  if (kind === "readyz") {
    const state = readiness(router);
    if (cluster === undefined) return writeJsonBody(response, state.ready ? 200 : 503, state);
    // A replica that cannot reach the shared store takes no new sessions: the balancer skips it.
    const ready = state.ready && cluster.available;
    return writeJsonBody(response, ready ? 200 : 503, {
      ...state,
      ready,
      cluster: cluster.status(),
    });
  }
  const text = router.telemetry.registry.render();
  response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE });
  response.end(text);
}

/**
 * Cluster mode, a request naming a session: adopts another replica's session before the transport
 * looks it up, and answers the calls lost with a replica to a client resuming its stream.
 */
async function prepareSharedSession(
  step: {
    readonly cluster: GatewayCluster;
    readonly shared: ClusterSessions;
    readonly handler: StreamableHttpHandler;
    readonly sessionId: string;
    readonly identity: TokenIdentity;
    readonly request: IncomingMessage;
    readonly response: ServerResponse;
  },
  profile: string | undefined,
): Promise<Refusal | "answered" | undefined> {
  const { sessionId, request } = step;
  const outcome = await step.shared.adopt(step.handler, sessionId, step.identity, profile, request);
  if (outcome === "unavailable") return storeUnavailable();
  if (outcome === "unknown") return undefined;
  const lastEventId = headerValue(request, "last-event-id");
  if (request.method !== "GET" || lastEventId === undefined) return;
  const answered = await answerOrphanedCalls(
    step.cluster,
    sessionId,
    lastEventId,
    step.response,
  ).catch(() => false);
  return answered ? "answered" : undefined;
}

/** The shared sessions' TTL, clock and warnings. */
function clusterTimes(options: HttpGatewayOptions, limits: ResolvedLimits) {
  return {
    ttlMs: limits.sessionIdleTtlMs,
    // Records are compared across machines: wall time, not the gateway's (test) clock.
    now: Date.now,
    onWarning: options.onWarning ?? (() => {}),
  };
}

/** The log line of one answered JSON-RPC request. */
function rpcLogEntry(
  router: HttpGatewayOptions["router"],
  end: FrontRequestEnd,
  profile: string | undefined,
  owner: TokenIdentity,
): GatewayLogEntry {
  const backend = end.backend ?? backendOfName(router.config, end.name, end.method);
  return {
    kind: "rpc",
    method: end.method,
    ...(profile === undefined ? {} : { profile }),
    ...(backend === undefined ? {} : { backend }),
    ...(end.name === undefined ? {} : { tool: end.name }),
    status: end.status,
    durationMs: end.durationMs,
    ...(end.traceId === undefined ? {} : { traceId: end.traceId }),
    client: owner.name,
  };
}

function storeUnavailable(): Refusal {
  return {
    status: 503,
    message: "the shared session store cannot be reached; try again shortly",
    headers: { "retry-after": "1" },
  };
}

function methodNotAllowed(request: IncomingMessage, allow: string): Refusal {
  return {
    status: 405,
    message: `method ${request.method} is not allowed here`,
    headers: { allow },
  };
}

/**
 * True when `Accept` names `text/event-stream` itself: Streamable HTTP clients always do, while plain
 * JSON-RPC clients send none, `application/json` or curl's wildcard.
 */
function namesEventStream(accept: string | undefined): boolean {
  return (accept ?? "")
    .split(",")
    .some((part) => part.split(";")[0]?.trim().toLowerCase() === "text/event-stream");
}
