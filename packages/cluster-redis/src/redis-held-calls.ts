import type { Redis } from "ioredis";

/**
 * The modern front's held-call ledger on Redis (the router's `HeldCallLedger`): one sorted set per
 * caller and profile, `<prefix>held-calls:<scope>`, whose members are held call keys scored by
 * their deadline. Entries past their deadline are dropped at each count, so the entries of a replica
 * that died lapse by themselves.
 */
export function createRedisHeldCallLedger(options: {
  readonly client: Redis;
  readonly prefix: string;
}): {
  hold(scope: string, key: string, ttlMs: number): Promise<number>;
  release(scope: string, key: string): void;
} {
  const { client } = options;
  const keyOf = (scope: string) => `${options.prefix}held-calls:${encodeURIComponent(scope)}`;
  return {
    async hold(scope, key, ttlMs) {
      const setKey = keyOf(scope);
      const now = Date.now();
      const results = await client
        .multi()
        .zremrangebyscore(setKey, "-inf", now)
        .zadd(setKey, now + ttlMs, key)
        .zcard(setKey)
        .pexpire(setKey, ttlMs)
        .exec();
      const count = results?.[2]?.[1];
      if (typeof count !== "number") throw results?.[2]?.[0] ?? new Error("no count");
      return count;
    },
    release(scope, key) {
      client.zrem(keyOf(scope), key).catch(() => {
        // The entry lapses at its deadline anyway.
      });
    },
  };
}
