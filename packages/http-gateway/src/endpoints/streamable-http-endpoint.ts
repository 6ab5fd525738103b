import type { IncomingMessage, ServerResponse } from "node:http";
import type { Transport } from "@patchbay/jsonrpc-core";
import type { Router } from "@patchbay/router";
import {
  type AdmitBatch,
  type Clock,
  createStreamableHttpHandler,
  type StreamableHttpHandler,
} from "@patchbay/transport-http";
import type { Refusal } from "../admission/admission.js";
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
    // A DELETE forgets the session on every replica before its 200 goes out.
    ...(cluster === undefined ? {} : { onSessionDeleted: cluster.forgetSession }),
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

/** What the front door knows of a Streamable HTTP request naming a session, with replicas. */
export interface ReplicatedRequestContext {
  readonly cluster: ClusterPlugin;
  readonly sessionId: string;
  readonly identity: TokenIdentity;
  readonly profile: string | undefined;
}

/**
 * Serves a Streamable HTTP request naming a session, with replicas: a session this replica does not
 * hold is adopted first, and a GET stream left open here is then held here. (Without replicas, or
 * without a session, the front door hands the request to the handler itself.)
 */
export async function serveReplicated(
  handler: StreamableHttpHandler,
  request: IncomingMessage,
  response: ServerResponse,
  context: ReplicatedRequestContext,
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
