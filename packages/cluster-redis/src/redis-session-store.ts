import type {
  SharedSessionRecord,
  SharedSessionStore,
  SubscriptionChange,
} from "@patchbay/http-gateway";
import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";
import type { Rejections } from "./rejections.js";

/** Field of a session's hash holding one resource subscription: `sub:<uri>`. */
const SUBSCRIPTION_FIELD = "sub:";

// Only a record that exists gains a subscription (a hash without `record` would never expire).
const SET_SUBSCRIPTION = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] == '1' then redis.call('HSET', KEYS[1], ARGV[1], '1')
else redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1`;

/** The channels where replicas hear of removed and saved sessions, and of subscription changes. */
export function sessionChannels(prefix: string): readonly [string, string, string] {
  return [`${prefix}session-removed`, `${prefix}session-saved`, `${prefix}session-subscriptions`];
}

/**
 * Session records as Redis hashes `<prefix>session:<id>` (`record`: the JSON, `lastActivityAt`,
 * and a field `sub:<uri>` per resource subscription) that expire after the idle TTL; each save is
 * published on `<prefix>session-saved`, each subscription change on
 * `<prefix>session-subscriptions` and each removal on `<prefix>session-removed`.
 */
export function createRedisSessionStore(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
  readonly prefix: string;
}): SharedSessionStore {
  const { client, prefix, seal } = options;
  const keyOf = (sessionId: string) => `${prefix}session:${sessionId}`;
  const [removedChannel, savedChannel, subscriptionsChannel] = sessionChannels(prefix);
  return {
    async save(fullRecord, ttlMs) {
      // Subscriptions have their own fields (setSubscription): a save never brings one back.
      const { resourceSubscriptions: _kept, ...record } = fullRecord;
      const json = JSON.stringify(record);
      const results = await client
        .multi()
        .hset(keyOf(record.sessionId), {
          // Sealed for its key: a record written or copied by anything else is never adopted.
          record: seal.sealRecord(keyOf(record.sessionId), json),
          lastActivityAt: String(record.lastActivityAt),
        })
        .pexpire(keyOf(record.sessionId), ttlMs)
        .publish(savedChannel, seal.seal(savedChannel, json))
        .exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    },
    async load(sessionId) {
      const fields = await client.hgetall(keyOf(sessionId));
      if (fields.record === undefined) return undefined;
      const json = seal.openRecord(keyOf(sessionId), fields.record);
      if (json === undefined) {
        options.rejections.reject(keyOf(sessionId));
        return undefined;
      }
      const record = JSON.parse(json) as SharedSessionRecord;
      const lastActivityAt = Number(fields.lastActivityAt ?? record.lastActivityAt);
      const resourceSubscriptions = Object.keys(fields)
        .filter((field) => field.startsWith(SUBSCRIPTION_FIELD))
        .map((field) => field.slice(SUBSCRIPTION_FIELD.length));
      const subscribed = resourceSubscriptions.length === 0 ? {} : { resourceSubscriptions };
      return { ...record, lastActivityAt, ...subscribed };
    },
    async setSubscription(sessionId, uri, subscribed) {
      const change = JSON.stringify({ sessionId, uri, subscribed });
      const field = `${SUBSCRIPTION_FIELD}${uri}`;
      const flag = subscribed ? "1" : "0";
      await client.eval(
        SET_SUBSCRIPTION,
        1,
        keyOf(sessionId),
        field,
        flag,
        subscriptionsChannel,
        seal.seal(subscriptionsChannel, change),
      );
    },
    onSubscription(listener): Unsubscribe {
      return options.subscriber.listen(subscriptionsChannel, (json) => {
        const change = JSON.parse(json) as SubscriptionChange;
        if (typeof change.uri === "string" && typeof change.subscribed === "boolean")
          listener(change);
      });
    },
    async touch(sessionId, at, ttlMs) {
      // Only an existing record is touched: an expired session stays gone.
      const key = keyOf(sessionId);
      const exists = await client.pexpire(key, ttlMs);
      if (exists === 1) await client.hset(key, "lastActivityAt", String(at));
    },
    async remove(sessionId) {
      await client
        .multi()
        .del(keyOf(sessionId))
        .publish(removedChannel, seal.seal(removedChannel, sessionId))
        .exec();
      // What other parts keep per session goes with it (one key a command, for Redis Cluster).
      await client
        .pipeline()
        .del(`${prefix}call-streams:${sessionId}`)
        .del(`${prefix}get-holder:{${sessionId}}`)
        .del(`${prefix}get-kept:{${sessionId}}`)
        .exec();
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
