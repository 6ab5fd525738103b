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
}

/**
 * Declares, labelled with this replica's id: `patchbay_cluster_calls_in_flight` (this replica's
 * client requests not answered yet), `patchbay_cluster_replica_sessions` (client sessions it
 * holds) and `patchbay_cluster_replicas_gone` (replicas that stopped heartbeating within the
 * retention, as this replica last saw them). `stats` is read at each scrape.
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
  const labels = { replica: cluster.replicaId };
  registry.addCollector(() => {
    const current = stats();
    inFlight.set(labels, current.callsInFlight);
    sessions.set(labels, current.sessions);
    gone.set(labels, cluster.replicas().filter((replica) => replica.state === "gone").length);
  });
}
