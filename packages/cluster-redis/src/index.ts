export {
  createRedisCluster,
  type RedisCluster,
  type RedisClusterOptions,
} from "./redis-cluster.js";
export {
  describeRedisUrl,
  RedisUnreachableError,
  redisOptionsOf,
} from "./redis-connection.js";
export { createRedisEventStore, type RedisEventStoreOptions } from "./redis-event-store.js";
export { createRedisRateLimiter } from "./redis-rate-limiter.js";
export {
  type GaugeRegistry,
  type ReplicaMetricsSource,
  registerReplicaMetrics,
} from "./replica-metrics.js";
export type { ReplicaStats, ReplicaStatus } from "./replica-status.js";
export type { SessionListing, SessionSummary } from "./session-records.js";
