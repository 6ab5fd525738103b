import type { MetricRegistry } from "@patchbay/telemetry";
import type { GatewayCluster } from "./cluster.js";
import type { ClusterSessions } from "./cluster-sessions.js";

/**
 * Declares `patchbay_cluster_store_up`, `patchbay_cluster_replicas` and
 * `patchbay_cluster_adopted_sessions`, each labelled with this replica's id.
 */
export function registerClusterMetrics(
  registry: MetricRegistry,
  cluster: GatewayCluster,
  sessions: ClusterSessions,
): void {
  const up = registry.gauge({
    name: "patchbay_cluster_store_up",
    help: "1 while this replica reaches the shared store (Redis), else 0",
    labelNames: ["replica"],
  });
  const replicas = registry.gauge({
    name: "patchbay_cluster_replicas",
    help: "Replicas whose heartbeat is fresh, as this replica last saw them",
    labelNames: ["replica"],
  });
  const adopted = registry.gauge({
    name: "patchbay_cluster_adopted_sessions",
    help: "Sessions created on another replica and served here since start",
    labelNames: ["replica"],
  });
  const labels = { replica: cluster.replicaId };
  registry.addCollector(() => {
    up.set(labels, cluster.available ? 1 : 0);
    replicas.set(labels, cluster.liveReplicas);
    adopted.set(labels, sessions.adoptedCount);
  });
}
