export {
  type CallBatch,
  type CallFeed,
  type CallFeedOptions,
  type CallRates,
  type CallSummary,
  callOfEvent,
  createCallFeed,
  type DashboardCall,
} from "./call-feed.js";
export {
  type CatalogueReader,
  type CatalogueReaderOptions,
  type CatalogueTool,
  createCatalogueReader,
} from "./catalogue-reader.js";
export {
  type ClusterReplicaSource,
  type ClusterSessionSource,
  clusterView,
  type DashboardCluster,
  type DashboardClusterSession,
  type DashboardClusterView,
  type DashboardReplica,
  type LostReplicaSource,
  type ReplicaCounts,
} from "./cluster-view.js";
export type { ConnectLinkMinter } from "./connect-endpoint.js";
export {
  createDashboard,
  DASHBOARD_PATH,
  type Dashboard,
  type DashboardOptions,
} from "./dashboard.js";
export {
  cookieOf,
  createDashboardAuth,
  DASHBOARD_COOKIE,
  type DashboardAuth,
  type DashboardAuthOptions,
} from "./dashboard-auth.js";
export type { FeedMessage } from "./feed-socket.js";
export {
  createMemoryLoginStore,
  type DashboardLoginStore,
  type StoredLogin,
} from "./login-store.js";
export type {
  CredentialPlaces,
  DashboardPrincipalBackend,
  PrincipalCredentialState,
} from "./principal-credentials.js";
export {
  type SessionTracker,
  type SessionTrackerOptions,
  type TrackedSession,
  trackRouterSessions,
} from "./session-tracker.js";
export {
  buildDashboardSnapshot,
  type DashboardBackend,
  type DashboardSession,
  type DashboardSnapshot,
  type SnapshotSources,
} from "./snapshot.js";
export {
  createStaticAssets,
  DASHBOARD_ASSETS,
  SECURITY_HEADERS,
  type StaticAssets,
} from "./static-assets.js";
