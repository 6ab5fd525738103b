export {
  BUS_MESSAGE_WINDOW_MS,
  type ClusterSeal,
  ClusterSecretError,
  createClusterSeal,
  MIN_CLUSTER_SECRET_LENGTH,
} from "./cluster-seal.js";
export {
  createRedisCluster,
  type RedisCluster,
  type RedisClusterOptions,
} from "./redis-cluster.js";
export {
  type ConnectLinkRecord,
  createRedisConnectFlows,
  type RedisConnectFlows,
  type RedisConnectFlowsOptions,
  type SignInOutcome,
} from "./redis-connect-flows.js";
export {
  describeRedisUrl,
  RedisUnreachableError,
  redisOptionsOf,
} from "./redis-connection.js";
export {
  connectRedisCredentialStore,
  createRedisCredentialStore,
  type RedisCredentialStore,
  type RedisCredentialStoreOptions,
} from "./redis-credentials.js";
export {
  createRedisDashboardLogins,
  type RedisDashboardLogin,
  type RedisDashboardLogins,
} from "./redis-dashboard-logins.js";
export { createRedisEventStore, type RedisEventStoreOptions } from "./redis-event-store.js";
export type { ListChange } from "./redis-list-changes.js";
export type { ModernFrontClusterOptions } from "./redis-modern.js";
export { MAX_RELAYED_MODERN_REQUESTS, type RedisModernRelay } from "./redis-modern-relay.js";
export { createRedisPinStore, type RedisPinStore } from "./redis-pins.js";
export { createRedisRateLimiter } from "./redis-rate-limiter.js";
export {
  RESOURCE_WANT_TIMEOUT_MS,
  type ResourceUpdateListener,
} from "./redis-resource-updates.js";
export { createRejections, type Rejections } from "./rejections.js";
export {
  type GaugeRegistry,
  type ReplicaMetricsSource,
  registerReplicaMetrics,
} from "./replica-metrics.js";
export type { ReplicaStats, ReplicaStatus } from "./replica-status.js";
export type { SessionListing, SessionSummary } from "./session-records.js";
