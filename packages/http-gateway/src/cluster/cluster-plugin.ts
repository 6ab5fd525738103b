import type { IncomingMessage, ServerResponse } from "node:http";
import type { MetricRegistry } from "@patchbay/telemetry";
import { type EventStore, headerValue, type StreamableHttpHandler } from "@patchbay/transport-http";
import type { RateLimiterOptions, Refusal, SharedRateLimiter } from "../admission/admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { Readiness } from "../endpoints/readiness.js";
import type { ResolvedLimits } from "../http-gateway-options.js";
import type { GatewayCluster, ModernRelay } from "./cluster.js";
import { registerClusterMetrics } from "./cluster-metrics.js";
import { type ClusterSessions, createClusterSessions } from "./cluster-sessions.js";
import { type LostReplicaReport, startFailover } from "./failover.js";
import { answerOrphanedCalls } from "./orphaned-calls.js";
import { type SseForwarding, sseForwardingOf } from "./sse-forwarding.js";

/** A Streamable HTTP request naming a session, as the cluster sees it around its serving. */
export interface SessionRequest {
  readonly handler: StreamableHttpHandler;
  readonly sessionId: string;
  readonly identity: TokenIdentity;
  readonly profile: string | undefined;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

/**
 * Everything replicas add to the gateway, behind one seam: the front door, the endpoints and
 * `/readyz` call these and nothing else of the cluster. A gateway without `cluster` has none.
 */
export interface ClusterPlugin {
  /** Rate-limit buckets every replica shares. */
  createRateLimiter(options: RateLimiterOptions): SharedRateLimiter;
  /** Resumable SSE events every replica reads. */
  readonly eventStore: EventStore;
  /** Relays modern retries to the replica holding their call. */
  readonly modernRelay: ModernRelay | undefined;
  /** Forwards legacy SSE POSTs to the replica holding the stream. */
  readonly sseForwarding: SseForwarding | undefined;
  /** Why a new session cannot open now (the shared store unreachable), if it cannot. */
  refuseNewSession(): Refusal | undefined;
  /** Wraps a Streamable HTTP session's transport so that every replica can serve the session. */
  readonly wrapSession: ClusterSessions["wrap"];
  /**
   * A client's DELETE ended the session here: its record goes and every replica hears it, before
   * the client has its 200 (a failure is warned about, never thrown).
   */
  forgetSession(sessionId: string): Promise<void>;
  /**
   * Before the transport looks the session up: adopts another replica's session, and answers the
   * calls lost with a replica to a client resuming its stream (`answered`: nothing more to do).
   */
  beforeSessionRequest(step: SessionRequest): Promise<Refusal | "answered" | undefined>;
  /** After it was served: a GET stream left open here makes this replica its holder. */
  afterSessionRequest(step: SessionRequest): Promise<void>;
  /**
   * `/readyz`: not ready while the shared store is unreachable (the balancer skips the replica);
   * `cluster.lostReplicas` lists the replicas found gone and the calls failed over here.
   */
  readiness(state: Readiness): Readiness & { readonly cluster: Readonly<Record<string, unknown>> };
  /** The replicas found gone, most recent first, with the calls failed over here. */
  lostReplicas(): readonly LostReplicaReport[];
  /** Stops listening to the cluster. */
  close(): void;
}

/** What {@link createClusterPlugin} needs of the gateway. */
export interface ClusterPluginOptions {
  readonly registry: MetricRegistry;
  readonly limits: ResolvedLimits;
  readonly onWarning?: ((message: string) => void) | undefined;
}

/** Adapts the ports a shared store provides (`GatewayCluster`) to the gateway's one seam. */
export function createClusterPlugin(
  cluster: GatewayCluster,
  options: ClusterPluginOptions,
): ClusterPlugin {
  const { limits } = options;
  const onWarning = options.onWarning ?? (() => {});
  const shared = createClusterSessions({
    cluster,
    ttlMs: limits.sessionIdleTtlMs,
    // Records are compared across machines: wall time, not the gateway's (test) clock.
    now: Date.now,
    onWarning,
  });
  registerClusterMetrics(options.registry, cluster, shared);
  const sseForwarding = sseForwardingOf(cluster, limits.maxBodyBytes, options.onWarning);
  const failover = startFailover(cluster, { onWarning, now: Date.now });
  return {
    createRateLimiter: (limiterOptions) => cluster.createRateLimiter(limiterOptions),
    eventStore: cluster.eventStore,
    modernRelay: cluster.modern,
    sseForwarding,
    refuseNewSession: () => (cluster.available ? undefined : storeUnavailable()),
    wrapSession: shared.wrap,
    forgetSession: (sessionId) =>
      cluster.sessions.remove(sessionId).catch((error: unknown) => {
        onWarning(`session ${sessionId}: removing its record: ${String(error)}`);
      }),
    async beforeSessionRequest(step) {
      const { sessionId, request } = step;
      const outcome = await shared.adopt(
        step.handler,
        sessionId,
        step.identity,
        step.profile,
        request,
      );
      if (outcome === "unavailable") return storeUnavailable();
      if (outcome === "unknown") return undefined;
      const lastEventId = headerValue(request, "last-event-id");
      if (request.method !== "GET" || lastEventId === undefined) return undefined;
      const answered = await answerOrphanedCalls(
        cluster,
        sessionId,
        lastEventId,
        step.response,
      ).catch(() => false);
      return answered ? "answered" : undefined;
    },
    async afterSessionRequest(step) {
      if (step.request.method === "GET") await shared.heldGetStream(step.sessionId);
    },
    readiness(state) {
      const lostReplicas = failover.recent();
      return {
        ...state,
        ready: state.ready && cluster.available,
        cluster: { ...cluster.status(), ...(lostReplicas.length > 0 ? { lostReplicas } : {}) },
      };
    },
    lostReplicas: failover.recent,
    close() {
      failover.close();
      sseForwarding?.close();
      shared.close();
    },
  };
}

function storeUnavailable(): Refusal {
  return {
    status: 503,
    message: "the shared session store cannot be reached; try again shortly",
    headers: { "retry-after": "1" },
  };
}
