import type { Router, WithheldPin } from "@patchbay/router";
import type { CallFeed, CallRates } from "./call-feed.js";
import type { CatalogueTool } from "./catalogue-reader.js";
import {
  clusterView,
  type DashboardCluster,
  type DashboardClusterView,
  type LostReplicaSource,
  type ReplicaCounts,
} from "./cluster-view.js";
import {
  type CredentialPlaces,
  type DashboardPrincipalBackend,
  principalCredentialStates,
} from "./principal-credentials.js";
import type { TrackedSession } from "./session-tracker.js";

/** One backend in the snapshot: state and counts, never its config (commands, env, headers). */
export interface DashboardBackend {
  readonly name: string;
  /** `idle`, `starting`, `running`, `crashed`, `stopped`, ... as the router reports it. */
  readonly status: string;
  readonly transport: string | null;
  /** The negotiated protocol revision. */
  readonly protocolVersion: string | null;
  readonly toolCount: number;
  readonly resourceCount: number;
  readonly promptCount: number;
  readonly restarts: number;
  readonly lastError: string | null;
}

/** A session in the snapshot. */
export interface DashboardSession extends TrackedSession {
  readonly ageMs: number;
  /** Time since its last request ended (or since it began, before any). */
  readonly idleMs: number;
  /** The replica holding it (this one), in a cluster. */
  readonly replica?: string;
}

/** Everything the dashboard page shows besides the live feed; safe to show (no secrets). */
export interface DashboardSnapshot {
  readonly generatedAt: string;
  readonly server: { readonly name: string; readonly version: string; readonly uptimeMs: number };
  readonly backends: readonly DashboardBackend[];
  readonly tools: readonly CatalogueTool[];
  readonly sessions: readonly DashboardSession[];
  readonly rates: CallRates;
  /** The replicas of the cluster, `null` for a single process. */
  readonly cluster: DashboardClusterView | null;
  /** Whether the dashboard asks for a login (the page offers "Log out" only then). */
  readonly auth: boolean;
  /**
   * The definitions the router's pins withhold (changed or not pinned), with their diffs: the page
   * shows them as text, and to an operator with buttons to approve them.
   */
  readonly withheld: readonly WithheldPin[];
  /**
   * Per-principal backends and, for each, which principals have their values (or tokens) stored
   * and which do not: states only, never values or links. Empty without a credential store.
   */
  readonly principalCredentials: readonly DashboardPrincipalBackend[];
}

/** What {@link buildDashboardSnapshot} reads. */
export interface SnapshotSources {
  readonly router: Router;
  readonly tools: () => Promise<readonly CatalogueTool[]>;
  readonly sessions: () => readonly TrackedSession[];
  readonly feed: Pick<CallFeed, "rates">;
  /** The cluster this process is a replica of, if any. */
  readonly cluster?: DashboardCluster | undefined;
  /** This replica's counts now (its row in the cluster shows them over its last heartbeat's). */
  readonly ownCounts?: () => Omit<ReplicaCounts, "callsInFlight">;
  /** The replicas this one found gone, with the calls it failed over. */
  readonly lostReplicas?: (() => readonly LostReplicaSource[]) | undefined;
  /** Whether the dashboard asks for a login. */
  readonly auth: boolean;
  /** The credential store's places, and the principals known without one (the tokens' names). */
  readonly credentials?: { readonly store: CredentialPlaces; readonly known: () => string[] };
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

const text = (value: unknown): string | null =>
  typeof value === "string" ? value : value === null || value === undefined ? null : String(value);
const count = (value: unknown): number => (typeof value === "number" ? value : 0);

/**
 * Builds the snapshot from `router.status()` (already redacted by the router; run through the
 * telemetry's redactor once more), the catalogue, the tracked sessions and the feed's rates. Only
 * the fields named here leave the process. In a cluster, each session names this replica, and
 * the replicas come from the cluster's heartbeats.
 */
export async function buildDashboardSnapshot(sources: SnapshotSources): Promise<DashboardSnapshot> {
  const now = (sources.now ?? Date.now)();
  const { router, cluster } = sources;
  const status = router.telemetry.redact(router.status()) as {
    gateway?: { name?: unknown; version?: unknown; uptime_ms?: unknown };
    backends?: Record<string, Record<string, unknown>>;
  };
  const backends = Object.entries(status.backends ?? {}).map(
    ([name, backend]): DashboardBackend => ({
      name,
      status: text(backend.status) ?? "unknown",
      transport: text(backend.transport),
      protocolVersion: text(backend.protocol_version),
      toolCount: count(backend.tool_count),
      resourceCount: count(backend.resource_count),
      promptCount: count(backend.prompt_count),
      restarts: count(backend.restarts),
      lastError: text(backend.last_error),
    }),
  );
  return {
    generatedAt: new Date(now).toISOString(),
    server: {
      name: text(status.gateway?.name) ?? "",
      version: text(status.gateway?.version) ?? "",
      uptimeMs: count(status.gateway?.uptime_ms),
    },
    backends,
    tools: await sources.tools(),
    sessions: sources.sessions().map((session) => ({
      ...session,
      ageMs: now - session.startedAt,
      idleMs: now - session.lastActiveAt,
      ...(cluster === undefined ? {} : { replica: cluster.replicaId }),
    })),
    rates: sources.feed.rates(),
    cluster:
      cluster === undefined
        ? null
        : await clusterView(cluster, now, sources.ownCounts, sources.lostReplicas),
    auth: sources.auth,
    withheld: router.pins.withheld(),
    principalCredentials:
      sources.credentials === undefined
        ? []
        : principalCredentialStates(
            router.config.backends,
            sources.credentials.known(),
            sources.credentials.store,
          ),
  };
}
