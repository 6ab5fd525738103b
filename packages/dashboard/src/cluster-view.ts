import type { RateLimiterOptions, SharedRateLimiter } from "@patchbay/http-gateway";
import type { DashboardLoginStore } from "./login-store.js";

/** Counts a replica publishes with its heartbeat (see `@patchbay/cluster-redis`). */
export interface ReplicaCounts {
  readonly sessions: number;
  readonly callsInFlight: number;
  readonly callsServed: number;
  readonly callsPerMinute: number;
  readonly errorsPerMinute: number;
}

/** A replica as the cluster lists it (`RedisCluster.replicas()` has this shape). */
export interface ClusterReplicaSource {
  readonly replicaId: string;
  readonly state: "live" | "gone" | "left";
  readonly startedAt: number;
  readonly lastBeatAt: number;
  readonly leftAt?: number;
  readonly stats?: ReplicaCounts;
}

/**
 * A replica this one found gone, and the calls it failed over (`/readyz` `cluster.lostReplicas`
 * has this shape: `HttpGateway.lostReplicas()`).
 */
export interface LostReplicaSource {
  readonly replicaId: string;
  /** When this replica noticed, ISO 8601. */
  readonly lostAt: string;
  /** Its calls this replica answered with `ReplicaLost` (-32017) on their streams. */
  readonly failedOver: number;
  /** Its calls with no stream to answer on (plain JSON answers): their clients saw them break. */
  readonly unanswerable: number;
}

/** A session record shared by the replicas (`RedisCluster.sessionSummaries()` has this shape). */
export interface ClusterSessionSource {
  readonly client?: string;
  readonly clientVersion?: string;
  /** `""` for the default endpoint. */
  readonly profile: string;
  /** The name of the token that created it. */
  readonly owner: string;
  readonly protocolVersion: string;
  readonly lastActivityAt: number;
}

/** The cluster this dashboard's process is a replica of (a `RedisCluster` fits). */
export interface DashboardCluster {
  /** The replica serving this dashboard. */
  readonly replicaId: string;
  /** Every replica as last seen: live ones, then those gone or left recently. */
  replicas(): readonly ClusterReplicaSource[];
  /** Hears a replica joining, going or leaving: open pages get a fresh snapshot at once. */
  onReplicasChanged?(listener: () => void): () => void;
  /** Every replica's shared sessions (Streamable HTTP), within the cluster's limits. */
  sessionSummaries?(): Promise<{
    readonly sessions: readonly ClusterSessionSource[];
    readonly truncated: boolean;
  }>;
  /**
   * Dashboard logins shared by the replicas: a login made on one is valid on all, a logout on one
   * ends it on all. Without it, logins are kept per process.
   */
  readonly dashboardLogins?: DashboardLoginStore;
  /** Rate-limit buckets shared by the replicas: the login attempts per address hold across them. */
  createRateLimiter?(options: RateLimiterOptions): SharedRateLimiter;
}

/** A shared session in the snapshot: no id, the token's name only. */
export interface DashboardClusterSession {
  readonly client: string | null;
  readonly clientVersion: string | null;
  /** `null` for the default endpoint (every backend). */
  readonly profile: string | null;
  readonly token: string;
  readonly protocolVersion: string;
  /** Since a replica last saw a request of it. */
  readonly idleMs: number;
}

/** One replica in the snapshot. */
export interface DashboardReplica {
  readonly replicaId: string;
  /** `live`, `gone` (stopped heartbeating: killed or cut off) or `left` (stopped cleanly). */
  readonly state: "live" | "gone" | "left";
  /** Whether it serves this dashboard. */
  readonly self: boolean;
  /** When it joined, ISO 8601. */
  readonly startedAt: string;
  /** Since its last heartbeat. */
  readonly lastBeatAgeMs: number;
  /** Its counts at its last heartbeat; `null` when it reports none. */
  readonly counts: ReplicaCounts | null;
}

/** The cluster in the snapshot: `null` for a single process. */
export interface DashboardClusterView {
  /** The replica serving this dashboard. */
  readonly replicaId: string;
  readonly live: number;
  readonly replicas: readonly DashboardReplica[];
  /**
   * The shared sessions of every replica (Streamable HTTP; legacy SSE and WebSocket sessions stay
   * on their replica), most recently active first; `null` when the cluster cannot list them now.
   */
  readonly sessions: readonly DashboardClusterSession[] | null;
  /** Whether the cluster's limits cut the list. */
  readonly sessionsTruncated: boolean;
  /** The replicas this one found gone, most recent first, with the calls it failed over. */
  readonly lostReplicas: readonly LostReplicaSource[];
}

/** Longest replica id shown (ids come from other replicas' records). */
const MAX_ID_LENGTH = 64;
const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;

const MAX_NAME_LENGTH = 200;
const name = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value.slice(0, MAX_NAME_LENGTH) : null;

const lostReplica = (lost: LostReplicaSource): LostReplicaSource => ({
  replicaId: String(lost.replicaId).slice(0, MAX_ID_LENGTH),
  lostAt: new Date(Date.parse(String(lost.lostAt)) || 0).toISOString(),
  failedOver: count(lost.failedOver),
  unanswerable: count(lost.unanswerable),
});

async function sharedSessions(
  cluster: DashboardCluster,
  now: number,
): Promise<Pick<DashboardClusterView, "sessions" | "sessionsTruncated">> {
  const listing = await cluster.sessionSummaries?.().catch(() => undefined);
  if (listing === undefined) return { sessions: null, sessionsTruncated: false };
  return {
    sessions: listing.sessions.map((session) => ({
      client: name(session.client),
      clientVersion: name(session.clientVersion),
      profile: name(session.profile),
      token: name(session.owner) ?? "",
      protocolVersion: name(session.protocolVersion) ?? "",
      idleMs: Math.max(0, now - count(session.lastActivityAt)),
    })),
    sessionsTruncated: listing.truncated === true,
  };
}

/**
 * Copies the named fields of each replica and shared session only, with ages from `now`. This
 * replica's own row takes `ownCounts` (read now) over those of its last heartbeat; `lostReplicas`
 * lists the replicas this one found gone.
 */
export async function clusterView(
  cluster: DashboardCluster,
  now: number,
  ownCounts?: () => Omit<ReplicaCounts, "callsInFlight">,
  lostReplicas?: () => readonly LostReplicaSource[],
): Promise<DashboardClusterView> {
  const replicas = cluster.replicas().map(
    (replica): DashboardReplica => ({
      replicaId: String(replica.replicaId).slice(0, MAX_ID_LENGTH),
      state: replica.state === "live" || replica.state === "left" ? replica.state : "gone",
      self: replica.replicaId === cluster.replicaId,
      startedAt: new Date(count(replica.startedAt)).toISOString(),
      lastBeatAgeMs: Math.max(0, now - count(replica.lastBeatAt)),
      counts:
        replica.stats === undefined
          ? null
          : {
              sessions: count(replica.stats.sessions),
              callsInFlight: count(replica.stats.callsInFlight),
              callsServed: count(replica.stats.callsServed),
              callsPerMinute: count(replica.stats.callsPerMinute),
              errorsPerMinute: count(replica.stats.errorsPerMinute),
              ...(replica.replicaId === cluster.replicaId ? ownCounts?.() : {}),
            },
    }),
  );
  return {
    replicaId: cluster.replicaId,
    live: replicas.filter((replica) => replica.state === "live").length,
    replicas,
    ...(await sharedSessions(cluster, now)),
    lostReplicas: (lostReplicas?.() ?? []).map(lostReplica),
  };
}
