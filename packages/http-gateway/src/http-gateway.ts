import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { systemClock } from "@patchbay/transport-http";
import { createRateLimiter, type Refusal } from "./admission/admission.js";
import { auditRefusedFrame } from "./admission/audit-refusal.js";
import { createFrontAdmission, type FrontCredentials } from "./admission/front-admission.js";
import type { TokenIdentity } from "./admission/token-auth.js";
import { createClusterPlugin } from "./cluster/cluster-plugin.js";
import type { LostReplicaReport } from "./cluster/failover.js";
import { createProfileEndpoints } from "./endpoints/profile-endpoints.js";
import { createWebSocketEndpoint } from "./endpoints/websocket-endpoint.js";
import { createFrontDoor } from "./front-door.js";
import { createGatewayMetrics, type GatewayLogEntry } from "./gateway-telemetry.js";
import {
  anonymousSessionCap,
  type HttpGatewayOptions,
  resolveLimits,
} from "./http-gateway-options.js";
import type { FrontRequestEnd } from "./session/front-guard.js";
import { createSessionServer } from "./session/serve-session.js";

/** Options of {@link HttpGateway.close}. */
export interface HttpGatewayCloseOptions {
  /** How long in-flight requests may take to finish before streams are ended. Default 10 s. */
  readonly drainTimeoutMs?: number;
}

/**
 * A node:http request listener serving a router at `/mcp`, `/sse`, health and metrics paths, with
 * an upgrade listener for MCP over WebSocket at `/ws`.
 */
export interface HttpGateway {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /**
   * Serves an `upgrade` event of node:http: `/ws` and `/ws/<profile>` become WebSocket sessions,
   * admitted as HTTP requests are; any other path gets 404.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  /** Open client sessions (Streamable HTTP, SSE and WebSocket). */
  readonly sessionCount: number;
  /** JSON-RPC requests received and not yet answered. */
  readonly pendingRequests: number;
  /**
   * The replicas of the cluster this one found gone, most recent first, with the calls it failed
   * over (`/readyz` `cluster.lostReplicas`); empty without a cluster.
   */
  lostReplicas(): readonly LostReplicaReport[];
  /**
   * Replaces the static tokens and the OAuth verifier (a config reload): requests from now on are
   * admitted with these; a session stays its owner's. Throws, changing nothing, for tokens that
   * cannot be used together (two of one name).
   */
  setAuth(credentials: FrontCredentials): void;
  /**
   * Stops taking new sessions and requests (503), lets requests in flight finish up to the drain
   * timeout, then ends every stream, session and WebSocket. The router is left to its owner to close.
   */
  close(options?: HttpGatewayCloseOptions): Promise<void>;
}

/** Who a log line of an answered request names. */
interface RequestOrigin {
  readonly owner: TokenIdentity;
  readonly profile: string | undefined;
  readonly path?: string | undefined;
}

/** Creates the HTTP gateway: see the package README for every endpoint and answer. */
export function createHttpGateway(options: HttpGatewayOptions): HttpGateway {
  const { router } = options;
  const limits = resolveLimits(options.limits);
  const clock = options.clock ?? systemClock;
  const log = options.onLog ?? (() => {});
  const registry = router.telemetry.registry;
  const cluster =
    options.cluster &&
    createClusterPlugin(options.cluster, { registry, limits, onWarning: options.onWarning });
  const metrics = createGatewayMetrics(registry, () => sessionCount());
  const requestEnded = (origin: RequestOrigin, end: FrontRequestEnd) => {
    metrics.rpc(end.method, end.status);
    log(rpcLogEntry(options, end, origin));
  };
  const sessions = createSessionServer({ router, limits, clock, onRequestEnd: requestEnded });
  const identities = new WeakMap<IncomingMessage, TokenIdentity>();
  const endpoints = createProfileEndpoints({
    router,
    limits,
    clock,
    keepAliveIntervalMs: options.keepAliveIntervalMs,
    sessions,
    cluster,
    // The map's own `get`, bound: no function of ours runs per request.
    identityOf: identities.get.bind(identities),
    // Called per request, once the admission below exists.
    chargeBatch: (request, identity, requests) =>
      admission.chargeBatch(request, identity, requests),
    onModernRequestEnd: (end, profile, owner) => requestEnded({ owner, profile }, end),
  });
  let auth: FrontCredentials = { tokens: options.tokens, oauth: options.oauth };
  const admission = createFrontAdmission({
    ...options,
    tokens: options.tokens,
    limits,
    limiter: (cluster?.createRateLimiter ?? createRateLimiter)({
      requestsPerMinute: limits.requestsPerMinute,
      // Bound, not wrapped: the system clock's `now` is `Date.now`, so no function of ours runs.
      now: clock.now.bind(clock),
    }),
    trustProxy: options.trustProxy ?? false,
    ownerOf: sessions.ownerOf,
  });
  const websocket = createWebSocketEndpoint({
    limits,
    sessions,
    admission,
    onRefused(refused, client) {
      metrics.refused(refused.refusal.status, refused.refusal.limitedBy);
      // A refused request is answered through the front guard, which logs it; a batch refused
      // whole never reaches the guard.
      if (refused.request === undefined) log(refusedBatchLogEntry(refused.refusal, client));
      if (options.audit !== undefined) {
        auditRefusedFrame(options.audit, refused, {
          principal: client.owner.name,
          profile: client.profile,
        });
      }
    },
  });
  const sessionCount = () => endpoints.sessionCount + websocket.connectionCount;
  // The drain, once `close` started it (the front door reads it per request).
  const drain: { closing: Promise<void> | undefined } = { closing: undefined };
  const serveClient = createFrontDoor({
    router,
    limits,
    clock,
    admission,
    sessions,
    endpoints,
    websocket,
    cluster,
    identities,
    metrics,
    index: options.index ?? {},
    auth: () => auth,
    log,
    audit: options.audit,
    drain,
    sessionCount,
    anonymousSessionCap: anonymousSessionCap(options.limits),
  });

  function close(closeOptions: HttpGatewayCloseOptions = {}): Promise<void> {
    drain.closing ??= (async () => {
      let timer: unknown;
      const deadline = new Promise<void>((resolve) => {
        timer = clock.setTimeout(resolve, closeOptions.drainTimeoutMs ?? 10_000);
      });
      await Promise.race([sessions.idle(), deadline]);
      clock.clearTimeout(timer);
      await Promise.all([endpoints.close(), websocket.close()]);
      cluster?.close();
    })();
    return drain.closing;
  }

  const gateway = (request: IncomingMessage, response: ServerResponse) =>
    serveClient({ request, response });
  return Object.defineProperties(gateway, {
    handleUpgrade: {
      value: (request: IncomingMessage, socket: Duplex, head: Buffer) =>
        serveClient({ request, socket, head }),
    },
    sessionCount: { get: sessionCount },
    pendingRequests: { get: () => sessions.pendingRequests },
    lostReplicas: { value: () => cluster?.lostReplicas() ?? [] },
    close: { value: close },
    setAuth: {
      value(credentials: FrontCredentials) {
        admission.setCredentials(credentials);
        auth = credentials;
      },
    },
  }) as HttpGateway;
}

/** What the log line of a `tools/call` (`prompts/get`) asks the router for its backend. */
const TOOL_OWNER = Object.freeze({ kind: "tool" as const });
const PROMPT_OWNER = Object.freeze({ kind: "prompt" as const });

/** The log line of one answered JSON-RPC request. */
function rpcLogEntry(
  options: HttpGatewayOptions,
  end: FrontRequestEnd,
  origin: RequestOrigin,
): GatewayLogEntry {
  const { profile, path } = origin;
  const kind =
    end.method === "tools/call"
      ? TOOL_OWNER
      : end.method === "prompts/get"
        ? PROMPT_OWNER
        : undefined;
  const backend =
    end.backend ??
    (end.name === undefined || kind === undefined
      ? undefined
      : options.router.ownerOf(end.name, kind));
  // Built by assignment, in the order of the line's fields: one object per answered request.
  const entry: { -readonly [K in keyof GatewayLogEntry]: GatewayLogEntry[K] } = {
    kind: "rpc",
    method: end.method,
  } as GatewayLogEntry;
  if (path !== undefined) entry.path = path;
  if (profile !== undefined) entry.profile = profile;
  if (backend !== undefined) entry.backend = backend;
  if (end.name !== undefined) entry.tool = end.name;
  entry.status = end.status;
  entry.durationMs = end.durationMs;
  if (end.traceId !== undefined) entry.traceId = end.traceId;
  entry.client = origin.owner.name;
  if (end.relayed === true) entry.relayed = true;
  return entry;
}

/** The log line of a batch that frame admission refused whole. */
function refusedBatchLogEntry(refusal: Refusal, origin: RequestOrigin): GatewayLogEntry {
  return {
    kind: "rpc",
    method: "(batch)",
    ...(origin.path === undefined ? {} : { path: origin.path }),
    ...(origin.profile === undefined ? {} : { profile: origin.profile }),
    status: refusal.code ?? refusal.status,
    durationMs: 0,
    client: origin.owner.name,
    message: refusal.message,
  };
}
