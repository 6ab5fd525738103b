import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";
import {
  cleanStats,
  expiredStatusIds,
  MAX_REPLICAS_LISTED,
  MAX_STATUS_BYTES,
  parseStoredStatus,
  type ReplicaStats,
  type ReplicaStatus,
  replicaStatuses,
  type StoredReplicaStatus,
} from "./replica-status.js";

/** A replica's presence in `<prefix>replica-status`. */
export interface Heartbeat {
  /** Replicas live at the last beat, this one included. */
  readonly liveReplicas: number;
  /** Every replica as of the last beat: live ones, then those gone or left within the retention. */
  readonly replicas: readonly ReplicaStatus[];
  /** Beats once now (also done every interval). */
  beat(): Promise<void>;
  /** What this replica reports at each beat from now on. */
  reportStats(stats: () => ReplicaStats): void;
  /** Hears a beat that found a replica joining, going or leaving. */
  onChange(listener: () => void): Unsubscribe;
  /** Stops beating and marks this replica `left`. */
  stop(): Promise<void>;
}

/** Options of {@link startHeartbeat}. */
export interface HeartbeatOptions {
  readonly client: Redis;
  /** The subscriber connection: it listens on this replica's presence channel. */
  readonly subscriber: Redis;
  readonly prefix: string;
  readonly replicaId: string;
  readonly intervalMs: number;
  readonly ttlMs: number;
  /** How long a replica that went or left stays listed. */
  readonly goneRetentionMs: number;
  /** The clock (epoch ms). Default `Date.now`; replicas' clocks should agree (NTP). */
  readonly now?: () => number;
  /**
   * Where replicas say, sealed, that they joined or left (`<prefix>replicas`): the others beat at
   * once instead of at their next interval, so a replica's count of live replicas (its share of
   * each rate limit while Redis is down) never misses one that joined just before an outage.
   */
  readonly announcements?: { readonly subscriber: RedisSubscriber; readonly seal: ClusterSeal };
}

/** The channel a replica stays subscribed to while its process lives. */
export function presenceChannel(prefix: string, replicaId: string): string {
  return `${prefix}presence:${replicaId}`;
}

/**
 * Beats every `intervalMs`: writes this replica's status (start, beat, expiry `now + ttlMs`,
 * counts) into the hash `<prefix>replica-status`, reads every status back and asks Redis which
 * replicas still listen on their presence channel (`PUBSUB NUMSUB`). A replica killed without a word is `gone` at the next beat of any
 * other (Redis closed its subscription), or after `ttlMs` at the latest.
 */
export function startHeartbeat(options: HeartbeatOptions): Heartbeat {
  const { client, replicaId, prefix } = options;
  const now = options.now ?? Date.now;
  const statusKey = `${prefix}replica-status`;
  const startedAt = now();
  const subscribed = options.subscriber
    .subscribe(presenceChannel(prefix, replicaId))
    .catch(() => {});
  let stats: (() => ReplicaStats) | undefined;
  let replicas: ReplicaStatus[] = [];
  let signature = "";
  let announced = false;
  const listeners = new Set<() => void>();
  const announcementChannel = `${prefix}replicas`;
  const stopListening = options.announcements?.subscriber.listen(announcementChannel, (message) => {
    if (message === replicaId) return;
    beat().catch(() => {
      // Redis is down: the next interval's beat tries again.
    });
  });

  /** Tells the other replicas to beat now (best effort: they beat every interval anyway). */
  async function announce(): Promise<void> {
    const { announcements } = options;
    if (announcements === undefined) return;
    await client
      .publish(announcementChannel, announcements.seal.seal(announcementChannel, replicaId))
      .catch(() => {});
  }

  function ownStatus(at: number): string {
    const clean = stats === undefined ? undefined : cleanStats(stats());
    const record: StoredReplicaStatus = {
      startedAt,
      beatAt: at,
      expiresAt: at + options.ttlMs,
      ...(clean === undefined ? {} : { stats: clean }),
    };
    const json = JSON.stringify(record);
    return json.length > MAX_STATUS_BYTES ? JSON.stringify({ ...record, stats: undefined }) : json;
  }

  /** Which replicas listen on their presence channel; asked only of the others still beating. */
  async function listeningOf(stored: Record<string, string>, at: number): Promise<Set<string>> {
    const others = Object.entries(stored)
      .filter(([id, json]) => {
        const record = id === replicaId ? undefined : parseStoredStatus(json);
        return record !== undefined && record.leftAt === undefined && record.expiresAt > at;
      })
      .map(([id]) => id);
    const listening = new Set([replicaId]);
    if (others.length === 0) return listening;
    const counts = (await client.pubsub(
      "NUMSUB",
      ...others.map((id) => presenceChannel(prefix, id)),
    )) as unknown[];
    others.forEach((id, index) => {
      if (Number(counts[index * 2 + 1]) > 0) listening.add(id);
    });
    return listening;
  }

  async function beat(): Promise<void> {
    await subscribed;
    const at = now();
    const retainMs = options.ttlMs + options.goneRetentionMs;
    // One round trip, three commands: a pipeline, since nothing here needs a transaction.
    const results = await client
      .pipeline()
      .hset(statusKey, replicaId, ownStatus(at))
      .pexpire(statusKey, Math.max(options.ttlMs * 10, retainMs * 2))
      .hgetall(statusKey)
      .exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
    const stored = { ...((results?.[2]?.[1] ?? {}) as Record<string, string>) };
    const expired = expiredStatusIds(stored, options.goneRetentionMs, at);
    if (expired.length > 0) await client.hdel(statusKey, ...expired);
    for (const id of expired) delete stored[id];
    const listening = await listeningOf(stored, at);
    replicas = replicaStatuses(stored, (id) => listening.has(id), at);
    const next = replicas.map((replica) => `${replica.replicaId}=${replica.state}`).join(",");
    if (next !== signature) {
      signature = next;
      for (const listener of listeners) listener();
    }
    if (!announced) {
      announced = true;
      await announce();
    }
  }

  const timer = setInterval(() => {
    beat().catch(() => {
      // Redis is down: the cluster reports it; the next beat tries again.
    });
  }, options.intervalMs);
  timer.unref();
  return {
    get liveReplicas() {
      return replicas.filter((replica) => replica.state === "live").length;
    },
    get replicas() {
      return replicas.slice(0, MAX_REPLICAS_LISTED);
    },
    beat,
    reportStats(provider) {
      stats = provider;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async stop() {
      clearInterval(timer);
      listeners.clear();
      stopListening?.();
      const at = now();
      const record: StoredReplicaStatus = { startedAt, beatAt: at, expiresAt: at, leftAt: at };
      await client.hset(statusKey, replicaId, JSON.stringify(record)).catch(() => {});
      await announce();
    },
  };
}
