import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import { createRedisHeldCallLedger } from "./redis-held-calls.js";
import { createRedisListChanges, type ListChange } from "./redis-list-changes.js";
import { createRedisModernRelay, type RedisModernRelay } from "./redis-modern-relay.js";
import {
  createRedisResourceUpdates,
  type ResourceUpdateListener,
} from "./redis-resource-updates.js";
import type { RedisSubscriber } from "./redis-subscriber.js";
import type { Rejections } from "./rejections.js";

/**
 * The router's `modern` options of a replica (`createRouter({ modern: { ...options } })`): the key
 * every replica seals `requestState` with (derived from the cluster secret, never in Redis), and the `cluster` hooks (this replica's id, the ledger
 * counting held calls per caller across replicas, the relay of shared backends' list changes, and
 * the relay of listen streams' resource subscriptions and their updates).
 */
export interface ModernFrontClusterOptions {
  readonly requestStateKey: Uint8Array;
  readonly cluster: {
    readonly replicaId: string;
    readonly heldCallLedger: {
      hold(scope: string, key: string, ttlMs: number): Promise<number>;
      release(scope: string, key: string): void;
    };
    readonly listChanges: {
      publish(change: ListChange): Promise<void>;
      subscribe(listener: (change: ListChange) => void): () => void;
    };
    readonly resourceUpdates: {
      want(scope: string, uri: string, wanted: boolean): Promise<void>;
      deliver(replicaId: string, scope: string, uri: string): Promise<boolean>;
      subscribe(listener: ResourceUpdateListener): () => void;
    };
  };
}

/** What a replica shares of the modern era: the relay of retries and the router's options. */
export function createRedisModern(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
  readonly prefix: string;
  readonly replicaId: string;
  readonly probeIntervalMs: number;
  readonly listChangeDedupMs: number;
  /** The replicas live as of the last heartbeat (their listen streams' wants are read at start). */
  readonly liveReplicas: () => readonly string[];
  /** How long a listen stream's resource want waits for the other replicas. */
  readonly resourceWantTimeoutMs?: number | undefined;
  readonly onWarning: (message: string) => void;
  readonly onAvailable: (listener: () => void) => void;
}): { relay: RedisModernRelay; frontOptions(): Promise<ModernFrontClusterOptions> } {
  const relay = createRedisModernRelay(options);
  let front: Promise<ModernFrontClusterOptions> | undefined;
  async function build(): Promise<ModernFrontClusterOptions> {
    const cluster = {
      replicaId: options.replicaId,
      heldCallLedger: createRedisHeldCallLedger(options),
      listChanges: createRedisListChanges({ ...options, dedupMs: options.listChangeDedupMs }),
      resourceUpdates: createRedisResourceUpdates({
        ...options,
        ...(options.resourceWantTimeoutMs === undefined
          ? {}
          : { wantTimeoutMs: options.resourceWantTimeoutMs }),
      }),
    };
    // Their channels are subscribed before the front uses them: another replica's list change or
    // resource want published from then on reaches this one.
    await options.subscriber.settled();
    return { requestStateKey: options.seal.requestStateKey, cluster };
  }
  return {
    relay,
    frontOptions() {
      front ??= build();
      return front;
    },
  };
}
