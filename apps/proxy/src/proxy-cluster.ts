import type { GaugeRegistry, RedisCluster, ReplicaStats } from "@patchbay/cluster-redis";
import type { ClusterConfig } from "@patchbay/http-gateway";
import type { Router } from "@patchbay/router";
import type { ProxyLog } from "./proxy-log.js";

/**
 * Joins the replicas that share `config.redis`, sealing what they exchange with `config.secret`. `@patchbay/cluster-redis` (and its Redis client)
 * is loaded only here, so a proxy without `cluster` never loads it. The router's modern front gets
 * `cluster.modernFrontOptions()` (the shared request-state key and the cluster hooks), and the
 * gateway relays modern retries through `cluster.modern`.
 */
export async function joinProxyCluster(
  config: ClusterConfig,
  sessionTtlMs: number,
  log: ProxyLog,
): Promise<RedisCluster> {
  const { createRedisCluster, describeRedisUrl } = await import("@patchbay/cluster-redis");
  const cluster = await createRedisCluster({
    url: config.redis,
    // Checked by createRedisCluster: a replica without one (or with a short one) does not start.
    secret: config.secret ?? "",
    previousSecrets: config.previousSecrets,
    replicaId: config.replicaId,
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    heartbeatTimeoutMs: config.heartbeatTimeoutMs,
    sessionTtlMs,
    onWarning: (message) => log.warn(`cluster: ${message}`),
    onInfo: (message) => log.info(`cluster: ${message}`),
  });
  log.info(
    `cluster: replica ${cluster.replicaId} on Redis at ${describeRedisUrl(config.redis)} (${cluster.liveReplicas} live)`,
  );
  return cluster;
}

/**
 * Publishes this replica's counts with each heartbeat (the dashboard's sessions and calls, the
 * HTTP gateway's requests in flight) and declares the replica gauges on `registry`.
 */
export async function reportReplicaCounts(
  cluster: RedisCluster,
  registry: GaugeRegistry,
  counts: () => ReplicaStats,
): Promise<void> {
  const { registerReplicaMetrics } = await import("@patchbay/cluster-redis");
  cluster.reportStats(counts);
  registerReplicaMetrics(registry, cluster, counts);
}

/** Another replica saved the pins (an approval, a new pin): this replica reads and serves them too. */
export function followSharedPins(cluster: RedisCluster, router: Router, log: ProxyLog): void {
  cluster.pins.onChanged(() => {
    router.pins.load().catch((error: unknown) => log.warn(`pins: ${String(error)}`));
  });
}
