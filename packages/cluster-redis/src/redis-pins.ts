import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import { canonicalJson, type PinSnapshot, type PinStore, readPinSnapshot } from "@patchbay/router";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";
import type { Rejections } from "./rejections.js";

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
 * at the same moment keep the later write; saves of different entries never undo each other. Each
 * entry is sealed with the cluster secret for its field (`sealRecord`), and the notice too: an entry
 * written straight to Redis does not open, is counted as rejected and is read as absent (the item
 * is then pinned again from what its backend lists), so Redis access alone approves nothing.
 */
export function createRedisPinStore(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
  readonly prefix: string;
  readonly replicaId: string;
}): RedisPinStore {
  const { client, prefix, replicaId, seal } = options;
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
      for (const [field, stored] of Object.entries(fields)) {
        const text = seal.openRecord(`${key}:${field}`, stored);
        if (text === undefined) {
          options.rejections.reject(key);
          continue;
        }
        const [backend, entryKey] = JSON.parse(field) as [string, string];
        backends[backend] = { ...backends[backend], [entryKey]: JSON.parse(text) };
        known.set(field, text);
      }
      if (Object.keys(backends).length === 0) return undefined;
      return readPinSnapshot({ version: 1, backends });
    },
    async save(snapshot) {
      const changed: [field: string, text: string][] = [];
      for (const [backend, entries] of Object.entries(snapshot.backends)) {
        for (const [entryKey, entry] of Object.entries(entries)) {
          const field = fieldOf(backend, entryKey);
          const text = canonicalJson(entry);
          if (known.get(field) === text) continue;
          changed.push([field, text]);
        }
      }
      if (changed.length === 0) return;
      await client.hset(
        key,
        ...changed.flatMap(([field, text]) => [field, seal.sealRecord(`${key}:${field}`, text)]),
      );
      for (const [field, text] of changed) known.set(field, text);
      await client.publish(channel, seal.seal(channel, replicaId));
    },
    onChanged(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
