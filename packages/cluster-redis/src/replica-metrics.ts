import type { ReplicaStats, ReplicaStatus } from "./replica-status.js";

/** The part of a metric registry (`@patchbay/telemetry`'s `MetricRegistry`) these gauges need. */
export interface GaugeRegistry {
  gauge(definition: {
    readonly name: string;
    readonly help: string;
    readonly labelNames?: readonly string[];
  }): { set(labels: Readonly<Record<string, string>> | undefined, value: number): void };
  addCollector(collect: () => void): void;
}

/** What {@link registerReplicaMetrics} reads at each scrape. */
export interface ReplicaMetricsSource {
  readonly replicaId: string;
  replicas(): readonly ReplicaStatus[];
  /** Bus messages and stored records dropped because they failed verification. */
  readonly rejectedMessages?: number;
  /** True while Redis cannot be reached (rate limits are this replica's share). */
  readonly degraded?: boolean;
}

/**
 * Declares, labelled with this replica's id: `patchbay_cluster_calls_in_flight` (this replica's
 * client requests not answered yet), `patchbay_cluster_replica_sessions` (client sessions it
 * holds) and `patchbay_cluster_replicas_gone` (replicas that stopped heartbeating within the
 * retention, as this replica last saw them), and, when the source has them,
 * `patchbay_cluster_degraded` (1 while Redis cannot be reached: rate limits are this replica's
 * share) and `patchbay_cluster_rejected_messages` (messages and records from Redis dropped because
 * they failed verification, since start). `stats` is read at each scrape.
 */
export function registerReplicaMetrics(
  registry: GaugeRegistry,
  cluster: ReplicaMetricsSource,
  stats: () => Pick<ReplicaStats, "callsInFlight" | "sessions">,
): void {
  const labelNames = ["replica"];
  const inFlight = registry.gauge({
    name: "patchbay_cluster_calls_in_flight",
    help: "Client requests this replica received and has not answered yet",
    labelNames,
  });
  const sessions = registry.gauge({
    name: "patchbay_cluster_replica_sessions",
    help: "Client sessions this replica holds (every transport)",
    labelNames,
  });
  const gone = registry.gauge({
    name: "patchbay_cluster_replicas_gone",
    help: "Replicas that stopped heartbeating without leaving, within the retention",
    labelNames,
  });
  const degraded = registry.gauge({
    name: "patchbay_cluster_degraded",
    help: "1 while Redis cannot be reached: rate limits are this replica's share of each limit",
    labelNames,
  });
  const rejected = registry.gauge({
    name: "patchbay_cluster_rejected_messages",
    help: "Messages and records read from Redis that failed verification (dropped), since start",
    labelNames,
  });
  const labels = { replica: cluster.replicaId };
  registry.addCollector(() => {
    degraded.set(labels, cluster.degraded === true ? 1 : 0);
    rejected.set(labels, cluster.rejectedMessages ?? 0);
    const current = stats();
    inFlight.set(labels, current.callsInFlight);
    sessions.set(labels, current.sessions);
    gone.set(labels, cluster.replicas().filter((replica) => replica.state === "gone").length);
  });
}
