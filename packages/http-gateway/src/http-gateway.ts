import type { IncomingMessage, ServerResponse } from "node:http";
import { isLegacyProtocolVersion } from "@patchbay/mcp-types";
import { PROMETHEUS_CONTENT_TYPE } from "@patchbay/telemetry";
import {
  createOriginGuard,
  headerValue,
  systemClock,
  writeJsonBody,
  writeJsonError,
} from "@patchbay/transport-http";
import { admit, isRefusal, type Refusal } from "./admission.js";
import { backendOfName } from "./backend-of-name.js";
import { createGatewayMetrics } from "./gateway-metrics.js";
import { type GatewayRoute, parseGatewayPath } from "./gateway-path.js";
import { type HttpGatewayOptions, resolveLimits } from "./http-gateway-options.js";
import { answerPlainPost } from "./plain-post.js";
import { createRateLimiter } from "./rate-limiter.js";
import { readiness } from "./readiness.js";
import { createSessionEndpoints } from "./session-endpoints.js";
import { createTokenAuthenticator, type TokenIdentity } from "./token-auth.js";

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
  const endpoints = createSessionEndpoints({
    router,
    limits,
    clock,
    ...(options.keepAliveIntervalMs === undefined
      ? {}
      : { keepAliveIntervalMs: options.keepAliveIntervalMs }),
    identityOf: (request) => identities.get(request),
    onRequestEnd(end, profile, owner) {
      metrics.rpc(end.method, end.status);
      const backend = end.backend ?? backendOfName(router.config, end.name, end.method);
      log({
        kind: "rpc",
        method: end.method,
        ...(profile === undefined ? {} : { profile }),
        ...(backend === undefined ? {} : { backend }),
        ...(end.name === undefined ? {} : { tool: end.name }),
        status: end.status,
        durationMs: end.durationMs,
        ...(end.traceId === undefined ? {} : { traceId: end.traceId }),
        client: owner.name,
      });
    },
  });
  const admission = {
    guard: createOriginGuard(options),
    limiter: createRateLimiter({
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
      return serveOperational(router, route.kind, response);
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
    const admitted = admit(request, route.profile, sessionId, admission);
    if (isRefusal(admitted)) return refuse(admitted);
    identities.set(request, admitted);
    const refusal = await dispatch(route, request, response, admitted, sessionId);
    if (refusal) refuse(refusal);
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
    if (opensSession && endpoints.sessionCount >= limits.maxSessions) {
      return {
        status: 503,
        message: `the gateway serves its maximum of ${limits.maxSessions} sessions`,
        headers: { "retry-after": "5" },
      };
    }
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
    })();
    return closing;
  }

  return Object.defineProperties(gateway, {
    sessionCount: { get: () => endpoints.sessionCount },
    pendingRequests: { get: () => endpoints.pendingRequests },
    close: { value: close },
  }) as HttpGateway;
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
) {
  if (kind === "healthz") return writeJsonBody(response, 200, { status: "ok" });
  if (kind === "readyz") {
    const state = readiness(router);
    return writeJsonBody(response, state.ready ? 200 : 503, state);
  }
  const text = router.telemetry.registry.render();
  response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE });
  response.end(text);
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
