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

/** The cluster this dashboard's process is a replica of (a `RedisCluster` fits). */
export interface DashboardCluster {
  /** The replica serving this dashboard. */
  readonly replicaId: string;
  /** Every replica as last seen: live ones, then those gone or left recently. */
  replicas(): readonly ClusterReplicaSource[];
  /** Hears a replica joining, going or leaving: open pages get a fresh snapshot at once. */
  onReplicasChanged?(listener: () => void): () => void;
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
}

/** Longest replica id shown (ids come from other replicas' records). */
const MAX_ID_LENGTH = 64;
const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;

/** Copies the named fields of each replica only, with ages from `now`. */
export function clusterView(cluster: DashboardCluster, now: number): DashboardClusterView {
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
            },
    }),
  );
  return {
    replicaId: cluster.replicaId,
    live: replicas.filter((replica) => replica.state === "live").length,
    replicas,
  };
}
