import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import { canonicalJson, type PinSnapshot, type PinStore, readPinSnapshot } from "@patchbay/router";
import type { Redis } from "ioredis";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** The replicas' shared pins: a `PinStore` that tells when another replica saved. */
export interface RedisPinStore extends PinStore {
  /** Calls `listener` each time another replica saved the pins (read them again: `router.pins.load()`). */
  onChanged(listener: () => void): Unsubscribe;
}

/** The hash field of one entry: its backend and its key there, apart. */
const fieldOf = (backend: string, key: string) => JSON.stringify([backend, key]);

/**
 * Pins in Redis: one hash `<prefix>pins`, a field per entry (its backend and key) holding the
 * entry's JSON. A save writes only the entries that differ from what this replica last read or
 * wrote, and is announced on `<prefix>pins-changed` with the saving replica's id, so the others read
 * the pins again (an approval on one replica is served by all). Two replicas saving the same entry
 * at the same moment keep the later write; saves of different entries never undo each other.
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
  // What this replica last read or wrote, per field: a save writes only what differs.
  const known = new Map<string, string>();
  options.subscriber.listen(channel, (from) => {
    if (from === replicaId) return;
    for (const listener of [...listeners]) listener();
  });
  return {
    async load(): Promise<PinSnapshot | undefined> {
      const fields = await client.hgetall(key);
      const backends: Record<string, Record<string, unknown>> = {};
      for (const [field, text] of Object.entries(fields)) {
        const [backend, entryKey] = JSON.parse(field) as [string, string];
        backends[backend] = { ...backends[backend], [entryKey]: JSON.parse(text) };
        known.set(field, text);
      }
      if (Object.keys(backends).length === 0) return undefined;
      return readPinSnapshot({ version: 1, backends });
    },
    async save(snapshot) {
      const changed: string[] = [];
      for (const [backend, entries] of Object.entries(snapshot.backends)) {
        for (const [entryKey, entry] of Object.entries(entries)) {
          const field = fieldOf(backend, entryKey);
          const text = canonicalJson(entry);
          if (known.get(field) === text) continue;
          changed.push(field, text);
        }
      }
      if (changed.length === 0) return;
      await client.hset(key, ...changed);
      for (let index = 0; index < changed.length; index += 2) {
        known.set(changed[index] as string, changed[index + 1] as string);
      }
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
