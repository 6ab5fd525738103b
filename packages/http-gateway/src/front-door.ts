import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Router } from "@patchbay/router";
import type { AuditLog } from "@patchbay/telemetry";
import {
  type Clock,
  HTTP_ERROR_CODE,
  headerValue,
  refuseUpgrade,
  writeJsonBody,
  writeJsonError,
} from "@patchbay/transport-http";
import { ANONYMOUS, isRefusal, type Refusal } from "./admission/admission.js";
import { auditRefusal } from "./admission/audit-refusal.js";
import type { FrontAdmission, FrontCredentials } from "./admission/front-admission.js";
import type { TokenIdentity } from "./admission/token-auth.js";
import type { ClusterPlugin } from "./cluster/cluster-plugin.js";
import {
  type EntryKind,
  entryKind,
  methodNotAllowed,
  opensSession,
  parseGatewayPath,
  requestPath,
  type SessionRoute,
} from "./endpoints/gateway-path.js";
import { type GatewayIndexOptions, serveIndex } from "./endpoints/index-page.js";
import { serveOperational } from "./endpoints/operational-endpoints.js";
import { servePins } from "./endpoints/pins-endpoint.js";
import { answerPlainPost } from "./endpoints/plain-post.js";
import type { ProfileEndpoints } from "./endpoints/profile-endpoints.js";
import { serveReplicated } from "./endpoints/streamable-http-endpoint.js";
import type { WebSocketEndpoint } from "./endpoints/websocket-endpoint.js";
import type { GatewayLogEntry, GatewayMetrics } from "./gateway-telemetry.js";
import type { ResolvedLimits } from "./http-gateway-options.js";
import type { SessionServer } from "./session/serve-session.js";

/** How a client comes in: an HTTP request, or a request to upgrade to WebSocket. */
export type ClientEntry =
  | { readonly request: IncomingMessage; readonly response: ServerResponse }
  | { readonly request: IncomingMessage; readonly socket: Duplex; readonly head: Buffer };

/** What the front door is made of. */
export interface FrontDoorParts {
  readonly router: Router;
  readonly limits: ResolvedLimits;
  readonly clock: Clock;
  readonly admission: FrontAdmission;
  readonly sessions: SessionServer;
  readonly endpoints: ProfileEndpoints;
  readonly websocket: WebSocketEndpoint;
  readonly cluster: ClusterPlugin | undefined;
  /** Where the identity admission gave each request is kept for the endpoints. */
  readonly identities: WeakMap<IncomingMessage, TokenIdentity>;
  readonly metrics: GatewayMetrics;
  /** What `GET /` shows. */
  readonly index: GatewayIndexOptions;
  /** The credentials in force: static tokens (the index asks for a bearer token), OAuth sign-in (its metadata). */
  readonly auth: () => FrontCredentials;
  readonly log: (entry: GatewayLogEntry) => void;
  /** Receives a `denied` record per request admission refuses. */
  readonly audit: AuditLog | undefined;
  /**
   * The gateway's drain, once `close` started it: from then on only sessions already open may go
   * on (read per request without a call).
   */
  readonly drain: { readonly closing: Promise<void> | undefined };
  /** Open sessions of every kind. */
  readonly sessionCount: () => number;
  /** The `anonymous` identity's cap on open sessions (see `anonymousSessionCap`). */
  readonly anonymousSessionCap: number;
}

/**
 * The gateway's one way in: every client entry, an HTTP request or a WebSocket upgrade, is routed,
 * admitted (see `FrontAdmission`), classified once and handed to its endpoint; every refusal is
 * answered, counted and logged here.
 */
export function createFrontDoor(parts: FrontDoorParts): (entry: ClientEntry) => Promise<void> {
  const { router, clock } = parts;
  return async function serveClient(entry) {
    const startedAt = clock.now();
    const { request } = entry;
    const path = requestPath(request.url);
    const route = parseGatewayPath(path);
    if (route === undefined || "socket" in entry !== (route.kind === "ws")) {
      return refuseEntry(parts, entry, path, startedAt, {
        status: 404,
        message: `not found: ${path}`,
      });
    }
    if (route.kind === "pins" || route.kind === "pins-approve") {
      // Only an HTTP request reaches here: an upgrade to any path but /ws was refused above.
      const refusal =
        "response" in entry && (await servePins(route.kind, request, entry.response, parts));
      if (refusal) refuseEntry(parts, entry, path, startedAt, refusal);
      return;
    }
    if (!("profile" in route)) {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return refuseEntry(parts, entry, path, startedAt, methodNotAllowed(request, "GET, HEAD"));
      }
      if (!("response" in entry)) return;
      const foreign = parts.admission.origin(request);
      if (foreign !== undefined) return refuseEntry(parts, entry, path, startedAt, foreign);
      if (route.kind === "index") {
        serveIndex(request, entry.response, parts.index, parts.auth().tokens !== undefined);
      } else if (route.kind === "resource-metadata") {
        const metadata = parts.auth().oauth?.metadataForPath(path);
        if (metadata === undefined)
          return refuseEntry(parts, entry, path, startedAt, {
            status: 404,
            message: `not found: ${path}`,
          });
        writeJsonBody(entry.response, 200, metadata);
      } else {
        serveOperational(router, route.kind, entry.response, parts.cluster);
      }
      return;
    }
    const sessionId =
      route.kind === "messages"
        ? (new URL(request.url ?? "/", "http://gateway").searchParams.get("sessionId") ?? undefined)
        : headerValue(request, "mcp-session-id");
    const admission = admitEntry(parts, request, route, sessionId);
    const admitted = admission instanceof Promise ? await admission : admission;
    if (isRefusal(admitted)) {
      if (parts.audit !== undefined) {
        auditRefusal(parts.audit, admitted, {
          method: `${request.method ?? ""} ${path}`,
          profile: route.profile,
          durationMs: clock.now() - startedAt,
        });
      }
      return refuseEntry(parts, entry, path, startedAt, admitted);
    }
    parts.identities.set(request, admitted);
    const kind = entryKind(route, request, sessionId);
    if (typeof kind !== "string") return refuseEntry(parts, entry, path, startedAt, kind);
    const full = opensSession(kind) ? refuseNewSession(parts, admitted) : undefined;
    if (full !== undefined) return refuseEntry(parts, entry, path, startedAt, full);
    const refusal = await serveAdmitted(parts, entry, kind, route.profile, admitted, sessionId);
    if (refusal !== undefined) refuseEntry(parts, entry, path, startedAt, refusal);
  };
}

/** What an endpoint that refuses nothing itself settles with. */
function nothing(): undefined {
  return undefined;
}

/** Answers a refused entry, counts the refusal and logs it. */
function refuseEntry(
  parts: FrontDoorParts,
  entry: ClientEntry,
  path: string,
  startedAt: number,
  refusal: Refusal,
): void {
  answerRefusal(entry, refusal);
  parts.metrics.refused(refusal.status, refusal.limitedBy);
  parts.log({
    kind: "http",
    method: entry.request.method ?? "",
    path,
    status: refusal.status,
    durationMs: parts.clock.now() - startedAt,
    message: refusal.message,
  });
}

/**
 * An unknown profile (404), a draining gateway (503), then the admission of the entry: at once when
 * no step of it has to wait.
 */
function admitEntry(
  parts: FrontDoorParts,
  request: IncomingMessage,
  route: SessionRoute,
  sessionId: string | undefined,
): TokenIdentity | Refusal | Promise<TokenIdentity | Refusal> {
  if (route.profile !== undefined && !Object.hasOwn(parts.router.config.profiles, route.profile)) {
    return { status: 404, message: `unknown profile: ${route.profile}` };
  }
  // While draining, only sessions already open may go on (answers to sampling, say).
  if (
    parts.drain.closing !== undefined &&
    (sessionId === undefined || parts.sessions.ownerOf(sessionId) === undefined)
  ) {
    return { status: 503, message: "the gateway is shutting down" };
  }
  return parts.admission.entry(request, route.profile, sessionId);
}

/**
 * Why a new session cannot open now (shared store down, `maxSessions` or the identity's
 * `maxSessionsPerIdentity` reached), if it cannot.
 */
function refuseNewSession(parts: FrontDoorParts, identity: TokenIdentity): Refusal | undefined {
  const unavailable = parts.cluster?.refuseNewSession();
  if (unavailable !== undefined) return unavailable;
  const { maxSessions, maxSessionsPerIdentity } = parts.limits;
  const full = (message: string): Refusal => ({
    status: 503,
    message,
    headers: { "retry-after": "5" },
  });
  if (parts.sessionCount() >= maxSessions) {
    return full(`the gateway serves its maximum of ${maxSessions} sessions`);
  }
  const cap = identity === ANONYMOUS ? parts.anonymousSessionCap : maxSessionsPerIdentity;
  if (parts.sessions.sessionsOf(identity.name) >= cap) {
    return full(
      `${identity.name} has ${cap} open sessions, the limit (limits.maxSessionsPerIdentity)`,
    );
  }
  return undefined;
}

/**
 * Hands an admitted entry to the endpoint of its kind. Not an async function: the Streamable HTTP
 * handler's own promise is handed back as it is, so the front door waits on it with one `await`
 * (an async function returning it would resolve its own promise with it, two turns more per request).
 */
function serveAdmitted(
  parts: FrontDoorParts,
  entry: ClientEntry,
  kind: EntryKind,
  profile: string | undefined,
  identity: TokenIdentity,
  sessionId: string | undefined,
): Promise<Refusal | undefined> {
  if ("socket" in entry) {
    return parts.websocket.upgrade({ ...entry, identity, profile }).then(nothing);
  }
  const { request, response } = entry;
  switch (kind) {
    case "plain":
      return answerPlainPost(request, response, {
        endpoint: parts.endpoints.plain(profile, identity),
        maxBodyBytes: parts.limits.maxBodyBytes,
        // A batch over maxBatchSize is refused whole by the endpoint, for nothing.
        chargeBatch: async (requests) =>
          requests > parts.limits.maxBatchSize
            ? undefined
            : parts.admission.chargeBatch(request, identity, requests),
      });
    case "sse-stream":
    case "sse-message":
      return parts.endpoints.sse(profile)(request, response).then(nothing);
    default: {
      const handler = parts.endpoints.streamable(profile);
      const { cluster } = parts;
      // The handler's own promise (it settles with nothing): no step of ours waits for it here.
      if (cluster === undefined || sessionId === undefined) {
        return handler(request, response) as Promise<undefined>;
      }
      return serveReplicated(handler, request, response, { cluster, sessionId, identity, profile });
    }
  }
}

/** A refusal as an HTTP answer with a JSON-RPC error body, on a response or an upgrading socket. */
function answerRefusal(entry: ClientEntry, refusal: Refusal): void {
  if ("socket" in entry) {
    refuseUpgrade(entry.socket, refusal);
    return;
  }
  writeJsonError(
    entry.response,
    refusal.status,
    refusal.code ?? HTTP_ERROR_CODE,
    refusal.message,
    refusal.headers,
  );
}
