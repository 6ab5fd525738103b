import { hostname } from "node:os";
import type { GatewayCluster } from "@patchbay/http-gateway";
import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import { type ClusterSeal, createClusterSeal } from "./cluster-seal.js";
import { type Heartbeat, startHeartbeat } from "./heartbeat.js";
import { createRedisBus, replicaChannel } from "./redis-bus.js";
import { createRedisCalls } from "./redis-calls.js";
import { createRedisConnectFlows, type RedisConnectFlows } from "./redis-connect-flows.js";
import { connectRedis, describeRedisUrl, endRedisConnection } from "./redis-connection.js";
import { createRedisCredentialStore, type RedisCredentialStore } from "./redis-credentials.js";
import { createRedisDashboardLogins, type RedisDashboardLogins } from "./redis-dashboard-logins.js";
import { createRedisEventStore } from "./redis-event-store.js";
import { createRedisGetStreams } from "./redis-get-streams.js";
import { createRedisModern, type ModernFrontClusterOptions } from "./redis-modern.js";
import type { RedisModernRelay } from "./redis-modern-relay.js";
import { createRedisPinStore, type RedisPinStore } from "./redis-pins.js";
import { createRedisRateLimiter } from "./redis-rate-limiter.js";
import { createRedisSessionStore, sessionChannels } from "./redis-session-store.js";
import { createRedisSseSessions } from "./redis-sse-sessions.js";
import { createRedisSubscriber, type RedisSubscriber } from "./redis-subscriber.js";
import { createRejections, type Rejections } from "./rejections.js";
import type { ReplicaStats, ReplicaStatus } from "./replica-status.js";
import { listSessionRecords, type SessionListing } from "./session-records.js";

/** Options of {@link createRedisCluster}. */
export interface RedisClusterOptions {
  /** `redis://[user:password@]host:port[/db]`, `rediss://…` or `unix:///path/to/redis.sock`. */
  readonly url: string;
  /**
   * The secret every replica shares, never stored in Redis (at least 32 characters: generate one
   * with `openssl rand -base64 32`). Every message and record replicas exchange through Redis is
   * sealed with an HMAC-SHA256 under a key derived from it, and so is modern `requestState`;
   * anything that does not verify is dropped, counted and logged, never acted on. Required.
   */
  readonly secret: string;
  /**
   * Secrets still accepted (never used to seal), while a new `secret` rolls out: give every replica
   * the new secret with the old one here, then drop the old one.
   */
  readonly previousSecrets?: readonly string[] | undefined;
  /** This replica's name; unique among replicas. Default `<hostname>-<pid>`. */
  readonly replicaId?: string | undefined;
  /** Prefix of every key and channel. Default `patchbay:`. */
  readonly keyPrefix?: string;
  /** How long session records and SSE events outlive the last activity (the session idle TTL). */
  readonly sessionTtlMs: number;
  /** SSE events kept per stream for `Last-Event-ID`. Default 100. */
  readonly maxEventsPerStream?: number;
  /**
   * Heartbeat interval. A replica killed without a word (its Redis subscription dropped) counts as
   * gone at the next beat of any other, within this interval. Default 2 s.
   */
  readonly heartbeatIntervalMs?: number | undefined;
  /**
   * How long a replica that stopped heartbeating but may still hold its Redis connection (cut off,
   * frozen) counts as live. Default three intervals.
   */
  readonly heartbeatTimeoutMs?: number | undefined;
  /** How long a replica that stopped heartbeating (or left) stays listed as such. Default 10 min. */
  readonly goneRetentionMs?: number;
  /** How long the first connection may take before start-up fails. Default 10 s. */
  readonly connectTimeoutMs?: number;
  /**
   * How long a shared backend's list change announced by several replicas (each one's copy of the
   * backend saw it, with the same new list) counts as one change. Default 2000 ms.
   */
  readonly listChangeDedupMs?: number;
  /**
   * How long a modern listen stream's resource subscription waits for the other replicas to
   * subscribe their backends before the stream is acknowledged anyway (with a warning). Default 5 s.
   */
  readonly resourceWantTimeoutMs?: number;
  /** Operator warnings: Redis lost, an event not stored. Never carries the URL's password. */
  readonly onWarning?: (message: string) => void;
  /** Operator notes: Redis back. */
  readonly onInfo?: (message: string) => void;
}

/** A replica's connection to the cluster: a `GatewayCluster` plus its lifecycle. */
export interface RedisCluster extends GatewayCluster {
  /** Replicas whose heartbeat is fresh (as of this replica's last beat). */
  readonly liveReplicas: number;
  /** Beats now and resolves with the replicas whose heartbeat is fresh. */
  heartbeat(): Promise<number>;
  /** Relays a modern retry to the replica holding its call. */
  readonly modern: RedisModernRelay;
  /**
   * The router's `modern` options for this replica: the request-state key shared through Redis
   * (made by the first replica) and the `cluster` hooks. Resolves to the same object every time.
   */
  modernFrontOptions(): Promise<ModernFrontClusterOptions>;
  /**
   * Every replica as of this replica's last beat: the live ones (id order), then those that
   * stopped heartbeating (`gone`) or stopped cleanly (`left`) within `goneRetentionMs`.
   */
  replicas(): readonly ReplicaStatus[];
  /** Hears a beat that found a replica joining, going or leaving. */
  onReplicasChanged(listener: () => void): Unsubscribe;
  /** The counts this replica publishes with each heartbeat (read at every beat). */
  reportStats(stats: () => ReplicaStats): void;
  /**
   * The session records of every replica, most recently active first: at most 200, found with at
   * most 20 `SCAN` calls (`truncated` says when a limit cut the listing). No session ids; the
   * owning token's name only.
   */
  sessionSummaries(): Promise<SessionListing>;
  /**
   * Dashboard logins shared by the replicas (a `DashboardLoginStore` of `@patchbay/dashboard`):
   * `createDashboard({ cluster })` uses it, so a login is valid on every replica.
   */
  readonly dashboardLogins: RedisDashboardLogins;
  /** Bus messages and stored records dropped so far because they failed verification. */
  readonly rejectedMessages: number;
  /** True while Redis cannot be reached: rate limits are this replica's share of each limit. */
  readonly degraded: boolean;
  /** Leaves the cluster and closes both Redis connections. */
  close(): Promise<void>;
  /** The pins every replica shares (`createRouter({ pinStore })`). */
  readonly pins: RedisPinStore;
  /**
   * The credential store every replica shares, sealed with `key` (`PATCHBAY_CREDENTIALS_KEY`):
   * rejects with a `CredentialStoreError` when Redis holds a store sealed with another key.
   */
  openCredentialStore(key: Buffer, onError?: (error: Error) => void): Promise<RedisCredentialStore>;
  /** Connect links and sign-ins underway, shared by the replicas (sealed with `key`). */
  openConnectFlows(key: Buffer): Promise<RedisConnectFlows>;
}

/**
 * Connects a replica to Redis (two connections: commands, and subscriptions) and builds what the
 * HTTP gateway shares through it. Rejects when Redis cannot be reached at start; later outages are
 * survived: `available` turns false (new sessions get 503), warnings say so, and the client
 * reconnects by itself.
 */
export async function createRedisCluster(options: RedisClusterOptions): Promise<RedisCluster> {
  const replica = await connectReplica(options);
  const { client, subscriberConnection, prefix, replicaId, rejections } = replica;
  const { heartbeat, modern, sse } = startReplica(replica, options);
  const gone = watchGoneReplicas(heartbeat, replicaId);
  // Listening before the first beat tells the others of this replica (they act on it at once): a
  // message sent to it, a broadcast, a session change or a POST forwarded to one of its streams is
  // never missed. Listeners added later find their channel subscribed.
  await subscriberConnection.subscribe(
    sse.channel,
    replicaChannel(prefix, replicaId),
    `${prefix}broadcast`,
    ...sessionChannels(prefix),
  );
  await heartbeat.beat();
  return {
    replicaId,
    sse,
    ...sharedStores(replica, options, heartbeat),
    modern: modern.relay,
    modernFrontOptions: modern.frontOptions,
    onAvailable(listener) {
      replica.availableListeners.add(listener);
      return () => {
        replica.availableListeners.delete(listener);
      };
    },
    get available() {
      return client.status === "ready";
    },
    get liveReplicas() {
      return heartbeat.liveReplicas;
    },
    async heartbeat() {
      await heartbeat.beat();
      return heartbeat.liveReplicas;
    },
    replicas: () => heartbeat.replicas,
    onReplicasChanged: (listener) => heartbeat.onChange(listener),
    onReplicaGone: gone.listen,
    reportStats: (stats) => heartbeat.reportStats(stats),
    get rejectedMessages() {
      return rejections.total;
    },
    get degraded() {
      return client.status !== "ready";
    },
    status: () => statusOf(client, replicaId, heartbeat.liveReplicas, rejections.total),
    async close() {
      modern.relay.close();
      sse.stop();
      await heartbeat.stop();
      await Promise.all([endRedisConnection(client), endRedisConnection(subscriberConnection)]);
    },
  };
}

/** A replica connected to Redis: what every part it shares through Redis is built with. */
interface ReplicaConnections {
  readonly prefix: string;
  readonly replicaId: string;
  readonly onWarning: (message: string) => void;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
  /** The command connection. */
  readonly client: Redis;
  /** The subscription connection, and the listeners on it. */
  readonly subscriberConnection: Redis;
  readonly subscriber: RedisSubscriber;
  /** Called when Redis is back after an outage. */
  readonly availableListeners: Set<() => void>;
}

/** Checks the secret, then opens both connections (neither left open when the other fails). */
async function connectReplica(options: RedisClusterOptions): Promise<ReplicaConnections> {
  const onWarning = options.onWarning ?? (() => {});
  // Checked before connecting: a replica without a valid secret never joins.
  const seal = createClusterSeal([options.secret, ...(options.previousSecrets ?? [])]);
  const rejections = createRejections(onWarning);
  const client = await connectRedis(options);
  const subscriberConnection = await connectRedis(options).catch((error: unknown) => {
    client.disconnect();
    throw error;
  });
  return {
    prefix: options.keyPrefix ?? "patchbay:",
    replicaId: options.replicaId ?? `${hostname()}-${process.pid}`,
    onWarning,
    seal,
    rejections,
    client,
    subscriberConnection,
    availableListeners: watchAvailability(client, options),
    subscriber: createRedisSubscriber(subscriberConnection, seal, rejections, onWarning),
  };
}

/** The replica's heartbeat, its modern relay and its SSE sessions. */
function startReplica(replica: ReplicaConnections, options: RedisClusterOptions) {
  const { client, subscriber, seal, rejections, prefix, replicaId, onWarning } = replica;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 2000;
  const heartbeat = startHeartbeat({
    client,
    subscriber: replica.subscriberConnection,
    announcements: { subscriber, seal },
    prefix,
    replicaId,
    intervalMs: heartbeatIntervalMs,
    ttlMs: options.heartbeatTimeoutMs ?? heartbeatIntervalMs * 3,
    goneRetentionMs: options.goneRetentionMs ?? 10 * 60_000,
  });
  const modern = createRedisModern({
    client,
    subscriber,
    seal,
    rejections,
    prefix,
    replicaId,
    probeIntervalMs: heartbeatIntervalMs,
    listChangeDedupMs: options.listChangeDedupMs ?? 2000,
    resourceWantTimeoutMs: options.resourceWantTimeoutMs,
    liveReplicas: () =>
      heartbeat.replicas
        .filter((status) => status.state === "live")
        .map((status) => status.replicaId),
    onWarning,
    onAvailable: (listener) => replica.availableListeners.add(listener),
  });
  const sse = createRedisSseSessions({
    client,
    subscriber,
    seal,
    rejections,
    prefix,
    replicaId,
    ttlMs: options.sessionTtlMs,
    onWarning,
  });
  return { heartbeat, modern, sse };
}

/**
 * The stores and limiters the replicas share: sessions, events, the bus, pins, credentials, held
 * calls, GET streams, dashboard logins and rate limits.
 */
function sharedStores(
  replica: ReplicaConnections,
  options: RedisClusterOptions,
  heartbeat: Heartbeat,
): Pick<
  RedisCluster,
  | "sessions"
  | "eventStore"
  | "bus"
  | "pins"
  | "openCredentialStore"
  | "openConnectFlows"
  | "calls"
  | "getStreams"
  | "createRateLimiter"
  | "sessionSummaries"
  | "dashboardLogins"
> {
  const { client, subscriber, seal, rejections, prefix, replicaId, onWarning } = replica;
  return {
    sessions: createRedisSessionStore({ client, subscriber, seal, rejections, prefix }),
    eventStore: createRedisEventStore({
      client,
      prefix,
      seal,
      rejections,
      ttlMs: options.sessionTtlMs,
      onWarning,
      ...(options.maxEventsPerStream === undefined
        ? {}
        : { maxEventsPerStream: options.maxEventsPerStream }),
    }),
    bus: createRedisBus({ client, subscriber, seal, prefix, replicaId, onWarning }),
    pins: createRedisPinStore({ client, subscriber, seal, rejections, prefix, replicaId }),
    ...sharedCredentials({ client, subscriber, seal, prefix, replicaId }),
    calls: createRedisCalls({
      client,
      seal,
      prefix,
      replicaId,
      ttlMs: options.sessionTtlMs,
      maxEventsPerStream: options.maxEventsPerStream ?? 100,
    }),
    getStreams: createRedisGetStreams({
      client,
      seal,
      rejections,
      prefix,
      replicaId,
      ttlMs: options.sessionTtlMs,
      maxKept: options.maxEventsPerStream ?? 100,
    }),
    createRateLimiter: (limiterOptions) =>
      createRedisRateLimiter(client, prefix, limiterOptions, onWarning, () =>
        Math.max(1, heartbeat.liveReplicas),
      ),
    sessionSummaries: () => listSessionRecords(client, prefix, seal),
    dashboardLogins: createRedisDashboardLogins({ client, prefix, seal, rejections }),
  };
}

/** The credential store and the connect flows of per-principal backends, opened with their key. */
function sharedCredentials(parts: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly prefix: string;
  readonly replicaId: string;
}): Pick<RedisCluster, "openCredentialStore" | "openConnectFlows"> {
  return {
    openCredentialStore: (key, onError) =>
      createRedisCredentialStore({ ...parts, key, ...(onError === undefined ? {} : { onError }) }),
    openConnectFlows: (key) => createRedisConnectFlows({ ...parts, key }),
  };
}

/**
 * Warns once when Redis is lost and tells when it is back; returns the listeners called then.
 */
function watchAvailability(
  client: Redis,
  options: Pick<RedisClusterOptions, "url" | "onWarning" | "onInfo">,
): Set<() => void> {
  const where = describeRedisUrl(options.url);
  const listeners = new Set<() => void>();
  let up = true;
  client.on("close", () => {
    if (!up) return;
    up = false;
    options.onWarning?.(
      `lost Redis at ${where}: new sessions get 503 until it is back; open ones go on here`,
    );
  });
  client.on("ready", () => {
    if (up) return;
    up = true;
    options.onInfo?.(`Redis at ${where} is back`);
    for (const listener of listeners) listener();
  });
  return listeners;
}

/** What `/readyz` shows of this replica: Redis, the live replicas, degraded limits, drops. */
function statusOf(client: Redis, replicaId: string, liveReplicas: number, rejected: number) {
  const ready = client.status === "ready";
  return {
    replicaId,
    redis: ready ? "connected" : "disconnected",
    liveReplicas,
    degraded: !ready,
    rateLimits: ready ? "shared" : `local: this replica's share (1/${Math.max(1, liveReplicas)})`,
    rejectedMessages: rejected,
  };
}

/**
 * Tells each replica found gone at a beat that this process had seen live (a replica that died
 * before this one started is not news here), once per process, or again if it comes back under the
 * same id and goes again. A listener added later hears the replicas gone so far at once.
 */
function watchGoneReplicas(heartbeat: Heartbeat, replicaId: string) {
  const seenLive = new Set<string>();
  const found = new Set<string>();
  const listeners = new Set<(replicaId: string) => void>();
  heartbeat.onChange(() => {
    for (const { replicaId: id, state } of heartbeat.replicas) {
      if (state === "live") {
        seenLive.add(id);
        found.delete(id);
      }
      if (state !== "gone" || id === replicaId || !seenLive.has(id) || found.has(id)) continue;
      found.add(id);
      for (const listener of listeners) listener(id);
    }
  });
  return {
    listen(listener: (replicaId: string) => void): Unsubscribe {
      listeners.add(listener);
      for (const gone of found) queueMicrotask(() => listener(gone));
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
