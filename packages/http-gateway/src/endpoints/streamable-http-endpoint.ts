import type { IncomingMessage, ServerResponse } from "node:http";
import type { Transport } from "@patchbay/jsonrpc-core";
import type { Router } from "@patchbay/router";
import {
  type AdmitBatch,
  type Clock,
  createStreamableHttpHandler,
  type StreamableHttpHandler,
} from "@patchbay/transport-http";
import { ANONYMOUS, type Refusal } from "../admission/admission.js";
import type { FrontAdmission } from "../admission/front-admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ClusterPlugin } from "../cluster/cluster-plugin.js";
import type { ResolvedLimits } from "../http-gateway-options.js";
import type { FrontRequestEnd } from "../session/front-guard.js";
import type { SessionServer } from "../session/serve-session.js";
import { modernRequests } from "./modern-requests.js";

/** Charges the requests of a batch after the first (see `FrontAdmission.chargeBatch`). */
export type ChargeBatch = FrontAdmission["chargeBatch"];

/** The options every HTTP transport handler of the gateway shares (Streamable HTTP, legacy SSE). */
export interface TransportSettings {
  readonly authenticate: (request: IncomingMessage) => { ok: true; info: TokenIdentity };
  readonly admitBatch: AdmitBatch;
  readonly allowedHosts: "any";
  readonly allowedOrigins: "any";
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly maxSessionsPerIdentity: number;
  readonly clock: Clock;
  readonly keepAliveIntervalMs?: number;
}

/**
 * The handlers' settings: they take the identity admission gave the request and check nothing
 * admission checked already (Host and Origin, with the gateway's lists).
 */
export function transportSettings(
  limits: ResolvedLimits,
  clock: Clock,
  keepAliveIntervalMs: number | undefined,
  identityOf: (request: IncomingMessage) => TokenIdentity | undefined,
  chargeBatch: ChargeBatch,
): TransportSettings {
  return {
    authenticate: (request) => ({ ok: true, info: identityOf(request) ?? ANONYMOUS }),
    // A batch costs a unit per request, as the requests would one by one.
    admitBatch: (request, requests) =>
      chargeBatch(request, identityOf(request) ?? ANONYMOUS, requests),
    allowedHosts: "any",
    allowedOrigins: "any",
    maxBodyBytes: limits.maxBodyBytes,
    // The gateway counts sessions itself, every kind and profile together; the transports' own
    // caps are set to match, not below it.
    maxSessions: limits.maxSessions,
    maxSessionsPerIdentity: limits.maxSessions,
    clock,
    ...(keepAliveIntervalMs === undefined ? {} : { keepAliveIntervalMs }),
  };
}

/** What the Streamable HTTP endpoint of one profile needs. */
export interface StreamableEndpointOptions {
  readonly router: Router;
  readonly limits: ResolvedLimits;
  readonly clock: Clock;
  readonly sessions: SessionServer;
  readonly settings: TransportSettings;
  readonly cluster: ClusterPlugin | undefined;
  /** Each modern (2026-07-28) request answered, with the token that sent it. */
  readonly onModernRequestEnd: (end: FrontRequestEnd, owner: TokenIdentity) => void;
}

/**
 * The Streamable HTTP handler of one profile (`undefined`: the default endpoint): legacy sessions
 * served through the session server (wrapped to be shared with the cluster's replicas, when there
 * are any) and modern (2026-07-28) requests without a session.
 */
export function createStreamableEndpoint(
  profile: string | undefined,
  options: StreamableEndpointOptions,
): StreamableHttpHandler {
  const { limits, clock, cluster } = options;
  const modern = modernRequests(options.router.modern(profile === undefined ? {} : { profile }), {
    maxResultBytes: limits.maxResultBytes,
    requestTimeoutMs: limits.requestTimeoutMs,
    clock,
    onRequestEnd: options.onModernRequestEnd,
    relay: cluster?.modernRelay,
    profile: profile ?? "",
  });
  return createStreamableHttpHandler({
    ...options.settings,
    // Modern (2026-07-28) requests: no session; each token is a caller of its own.
    modern,
    onSession: (transport, session) => {
      const owner = session.authInfo as TokenIdentity;
      const { sessionId } = session;
      const wrap =
        cluster === undefined || sessionId === undefined
          ? undefined
          : (front: Transport) =>
              cluster.wrapSession(
                front,
                sessionId,
                owner,
                profile,
                () => transport.hasStandaloneStream,
              );
      return options.sessions.serve(transport, {
        kind: "streamable",
        sessionId,
        owner,
        profile,
        wrap,
      });
    },
    sessionIdleTimeoutMs: limits.sessionIdleTtlMs,
    maxResponseBytes: limits.maxResponseBytes,
    ...(cluster === undefined ? {} : { eventStore: cluster.eventStore }),
  });
}

/**
 * Serves one Streamable HTTP request; with replicas, a request naming a session this replica does
 * not hold adopts it first, and a GET stream left open here is then held here.
 */
export function serveStreamable(
  handler: StreamableHttpHandler,
  request: IncomingMessage,
  response: ServerResponse,
  context: StreamableRequestContext,
): Promise<Refusal | undefined> {
  const { cluster, sessionId } = context;
  // The handler's own promise (it settles with nothing): no step of ours waits for it here.
  if (cluster === undefined || sessionId === undefined) {
    return handler(request, response) as Promise<undefined>;
  }
  return serveReplicated(handler, request, response, { ...context, cluster, sessionId });
}

/** What {@link serveStreamable} knows of a request. */
interface StreamableRequestContext {
  readonly cluster: ClusterPlugin | undefined;
  readonly sessionId: string | undefined;
  readonly identity: TokenIdentity;
  readonly profile: string | undefined;
}

/** A request naming a session, with replicas: adopted first when this replica does not hold it. */
async function serveReplicated(
  handler: StreamableHttpHandler,
  request: IncomingMessage,
  response: ServerResponse,
  context: StreamableRequestContext & {
    readonly cluster: ClusterPlugin;
    readonly sessionId: string;
  },
): Promise<Refusal | undefined> {
  const { cluster } = context;
  const step = { ...context, handler, request, response };
  const outcome = await cluster.beforeSessionRequest(step);
  if (outcome === "answered") return undefined;
  if (outcome !== undefined) return outcome;
  await handler(request, response);
  await cluster.afterSessionRequest(step);
  return undefined;
}
