import { randomBytes } from "node:crypto";
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

/**
 * The HMAC key every replica seals modern `requestState` with, kept in `<prefix>request-state-key`:
 * the first replica stores 32 random bytes (SET NX), every replica reads the stored ones. The key
 * is never logged. `restore()` stores this replica's copy again when absent (a Redis without
 * persistence comes back empty, and a replica started then must get the same key).
 */
export async function sharedRequestStateKey(options: {
  readonly client: Redis;
  readonly prefix: string;
}): Promise<{ readonly key: Uint8Array; restore(): Promise<void> }> {
  const name = `${options.prefix}request-state-key`;
  await options.client.set(name, randomBytes(32).toString("base64"), "NX");
  const stored = await options.client.get(name);
  const key = stored === null ? undefined : Buffer.from(stored, "base64");
  if (key === undefined || key.length < 32) {
    throw new Error(`${name} in Redis does not hold a key of 32 bytes or more`);
  }
  const encoded = key.toString("base64");
  return {
    key: new Uint8Array(key),
    async restore() {
      await options.client.set(name, encoded, "NX");
    },
  };
}
