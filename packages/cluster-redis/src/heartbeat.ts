import type { Redis } from "ioredis";

/** A replica's presence in `<prefix>replicas` (a sorted set scored by expiry time). */
export interface Heartbeat {
  /** Replicas whose heartbeat was fresh at the last beat, this one included. */
  readonly liveReplicas: number;
  /** Beats once now (also done every interval). */
  beat(): Promise<void>;
  /** Stops beating and leaves the set. */
  stop(): Promise<void>;
}

/**
 * Beats every `intervalMs`: ZADD with the expiry `now + ttlMs`, drops expired replicas, counts
 * the live ones. A replica killed without a word drops out after `ttlMs`.
 */
export function startHeartbeat(options: {
  readonly client: Redis;
  readonly prefix: string;
  readonly replicaId: string;
  readonly intervalMs: number;
  readonly ttlMs: number;
}): Heartbeat {
  const { client, replicaId } = options;
  const key = `${options.prefix}replicas`;
  let liveReplicas = 0;
  async function beat(): Promise<void> {
    const now = Date.now();
    const results = await client
      .multi()
      .zadd(key, now + options.ttlMs, replicaId)
      .zremrangebyscore(key, "-inf", now)
      .zcard(key)
      .pexpire(key, options.ttlMs * 10)
      .exec();
    const count = results?.[2]?.[1];
    if (typeof count === "number") liveReplicas = count;
  }
  const timer = setInterval(() => {
    beat().catch(() => {
      // Redis is down: the cluster reports it; the next beat tries again.
    });
  }, options.intervalMs);
  timer.unref();
  return {
    get liveReplicas() {
      return liveReplicas;
    },
    beat,
    async stop() {
      clearInterval(timer);
      await client.zrem(key, replicaId).catch(() => {});
    },
  };
}
