import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import { type PinSnapshot, type PinStore, readPinSnapshot } from "@patchbay/router";
import type { Redis } from "ioredis";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** The replicas' shared pins: a `PinStore` that tells when another replica saved. */
export interface RedisPinStore extends PinStore {
  /** Calls `listener` each time another replica saved the pins (read them again: `router.pins.load()`). */
  onChanged(listener: () => void): Unsubscribe;
}

/**
 * Pins in Redis: the snapshot as JSON at `<prefix>pins`; each save is announced on
 * `<prefix>pins-changed` with the saving replica's id, so the others read it again (an approval on
 * one replica is served by all). A save replaces the whole snapshot: two replicas saving at once
 * keep the later one, and the other's next change saves again.
 */
export function createRedisPinStore(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly prefix: string;
  readonly replicaId: string;
}): RedisPinStore {
  const { client, prefix, replicaId } = options;
  const key = `${prefix}pins`;
  const channel = `${prefix}pins-changed`;
  const listeners = new Set<() => void>();
  options.subscriber.listen(channel, (from) => {
    if (from === replicaId) return;
    for (const listener of [...listeners]) listener();
  });
  return {
    async load(): Promise<PinSnapshot | undefined> {
      const text = await client.get(key);
      return text === null ? undefined : readPinSnapshot(JSON.parse(text));
    },
    async save(snapshot) {
      await client.set(key, JSON.stringify(snapshot));
      await client.publish(channel, replicaId);
    },
    onChanged(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
