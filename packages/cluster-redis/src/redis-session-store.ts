import type { SharedSessionRecord, SharedSessionStore } from "@patchbay/http-gateway";
import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { RedisSubscriber } from "./redis-subscriber.js";

/**
 * Session records as Redis hashes `<prefix>session:<id>` (`record`: the JSON, `lastActivityAt`)
 * that expire after the idle TTL; each save is published on `<prefix>session-saved` and each
 * removal on `<prefix>session-removed`.
 */
export function createRedisSessionStore(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly prefix: string;
}): SharedSessionStore {
  const { client, prefix } = options;
  const keyOf = (sessionId: string) => `${prefix}session:${sessionId}`;
  const removedChannel = `${prefix}session-removed`;
  const savedChannel = `${prefix}session-saved`;
  return {
    async save(record, ttlMs) {
      const json = JSON.stringify(record);
      const results = await client
        .multi()
        .hset(keyOf(record.sessionId), {
          record: json,
          lastActivityAt: String(record.lastActivityAt),
        })
        .pexpire(keyOf(record.sessionId), ttlMs)
        .publish(savedChannel, json)
        .exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    },
    async load(sessionId) {
      const fields = await client.hgetall(keyOf(sessionId));
      if (fields.record === undefined) return undefined;
      const record = JSON.parse(fields.record) as SharedSessionRecord;
      const lastActivityAt = Number(fields.lastActivityAt ?? record.lastActivityAt);
      return { ...record, lastActivityAt };
    },
    async touch(sessionId, at, ttlMs) {
      // Only an existing record is touched: an expired session stays gone.
      const key = keyOf(sessionId);
      const exists = await client.pexpire(key, ttlMs);
      if (exists === 1) await client.hset(key, "lastActivityAt", String(at));
    },
    async remove(sessionId) {
      await client.multi().del(keyOf(sessionId)).publish(removedChannel, sessionId).exec();
    },
    onRemoved(listener): Unsubscribe {
      return options.subscriber.listen(removedChannel, listener);
    },
    onSaved(listener): Unsubscribe {
      return options.subscriber.listen(savedChannel, (json) => {
        listener(JSON.parse(json) as SharedSessionRecord);
      });
    },
  };
}
