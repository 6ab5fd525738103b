import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** A list change of a backend (the router's `ListChangeNotice`). */
export interface ListChange {
  readonly backend: string;
  readonly list: "tools" | "prompts" | "resources";
  readonly digest?: string;
  /** A per-session backend's change: the modern front (caller and profile) it concerns. */
  readonly scope?: string;
}

const LISTS = new Set(["tools", "prompts", "resources"]);

/**
 * The router's `ListChangeRelay` on Redis: a change is published on `<prefix>list-changes` and
 * every replica (this one included) hands it to its listeners. When several replicas announce
 * the same change (each replica's copy of a shared backend saw it: same backend, list and digest of
 * the new list), only the first within `dedupMs` publishes it (SET NX on
 * `<prefix>list-changed:<backend>:<list>:<digest>`), so a listener hears it once. A change without
 * a digest is always published. While Redis is down, changes reach this replica's listeners only.
 */
export function createRedisListChanges(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly prefix: string;
  readonly replicaId: string;
  readonly dedupMs: number;
  readonly onWarning: (message: string) => void;
}): {
  /** Resolves once the change is announced (or, Redis down, handed to this replica's listeners). */
  publish(change: ListChange): Promise<void>;
  subscribe(listener: (change: ListChange) => void): Unsubscribe;
} {
  const { client, prefix } = options;
  const channel = `${prefix}list-changes`;
  const listeners = new Set<(change: ListChange) => void>();
  const deliver = (change: ListChange) => {
    for (const listener of [...listeners]) listener(change);
  };
  options.subscriber.listen(channel, (text) => {
    const change = JSON.parse(text) as ListChange;
    const scoped = change.scope === undefined || typeof change.scope === "string";
    if (typeof change.backend === "string" && LISTS.has(change.list) && scoped) deliver(change);
  });
  async function announce(change: ListChange): Promise<void> {
    if (change.digest !== undefined) {
      // A per-session backend's copies announce changes of one caller's lists.
      const of = change.scope === undefined ? "" : `${change.scope}:`;
      const claim = `${prefix}list-changed:${of}${change.backend}:${change.list}:${change.digest}`;
      const first = await client.set(claim, options.replicaId, "PX", options.dedupMs, "NX");
      if (first !== "OK") return;
    }
    await client.publish(channel, options.seal.seal(channel, JSON.stringify(change)));
  }
  return {
    publish(change) {
      return announce(change).catch((error: unknown) => {
        options.onWarning(
          `a ${change.list} change of ${change.backend} reached this replica's listeners only: ${String(error)}`,
        );
        deliver(change);
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
