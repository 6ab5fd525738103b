import type { Unsubscribe } from "@patchbay/jsonrpc-core";

/**
 * Counts the calls held for a caller across every replica of a gateway, so that `maxHeldCalls`
 * holds for all of them together. A call's entry lapses by itself after its deadline (a replica
 * that died never releases its entries).
 */
export interface HeldCallLedger {
  /**
   * Records call `key` of `scope` (a caller on a profile) as waiting for a retry for at most
   * `ttlMs`, and resolves with how many calls of `scope` wait across the cluster, this one included.
   * A rejection makes the front count the calls of this replica only.
   */
  hold(scope: string, key: string, ttlMs: number): Promise<number>;
  /** The call no longer waits (resumed, ended); fire and forget. */
  release(scope: string, key: string): void;
}

/** A list change announced by a backend, as replicas tell one another. */
export interface ListChangeNotice {
  readonly backend: string;
  readonly list: "tools" | "prompts" | "resources";
  /**
   * For a per-session backend: the modern front (`<profile>\u0000<caller>`) whose copy of the
   * backend changed. Only that caller's listeners, on every replica, hear it. Absent for a shared
   * backend.
   */
  readonly scope?: string;
  /**
   * A digest of the backend's new list when the replica knows it: replicas whose copies of the
   * backend announce the same change compute the same digest, so the change is told once.
   */
  readonly digest?: string;
}

/** Carries list changes of backends between replicas. */
export interface ListChangeRelay {
  /**
   * Announces a change seen on this replica. The relay delivers each change (once per digest, when
   * several replicas announce the same) to the `subscribe` listeners of every replica, this one
   * included: a front with a relay tells its listeners only what the relay delivers.
   */
  publish(change: ListChangeNotice): void;
  /** Hears the changes the relay delivers. */
  subscribe(listener: (change: ListChangeNotice) => void): Unsubscribe;
}

/** What a replica hears of the others' resource subscriptions (see {@link ResourceUpdateRelay}). */
export interface ResourceUpdateListener {
  /**
   * Replica `from` has listen streams of `scope` wanting updates of `uri` (or no longer): this
   * replica subscribes (unsubscribes) its own backends; resolves once done.
   */
  wanted(from: string, scope: string, uri: string, wanted: boolean): Promise<void>;
  /** A backend on another replica announced an update of `uri` for the listen streams of `scope` here. */
  updated(scope: string, uri: string): void;
}

/**
 * Carries resource subscriptions of listen streams between replicas: each replica subscribes its
 * own copies of the backends to the URIs listen streams on any replica want, and sends the updates
 * they announce to the replicas whose streams want them.
 */
export interface ResourceUpdateRelay {
  /**
   * Tells every other replica that this replica's streams of `scope` want updates of `uri` (or no
   * longer); resolves once the replicas that can be reached subscribed, or gave no word in time.
   */
  want(scope: string, uri: string, wanted: boolean): Promise<void>;
  /** Sends an update of `uri` to replica `replicaId`; resolves false when that replica is gone. */
  deliver(replicaId: string, scope: string, uri: string): Promise<boolean>;
  /** Hears the other replicas' wants and the updates sent to this replica. */
  subscribe(listener: ResourceUpdateListener): Unsubscribe;
}

/**
 * What a modern front needs when several replicas of a gateway serve the same clients (see the
 * proxy's `cluster` and `@patchbay/cluster-redis`). Give every replica the same `requestStateKey`.
 */
export interface ModernClusterOptions {
  /** This replica's name, sealed into each `requestState` so that any replica tells who holds it. */
  readonly replicaId: string;
  /** Counts held calls per caller across replicas; without it, `maxHeldCalls` is per replica. */
  readonly heldCallLedger?: HeldCallLedger;
  /** Tells listeners on every replica of a shared backend's list change seen on any one. */
  readonly listChanges?: ListChangeRelay;
  /** Shares listen streams' resource subscriptions, and their updates, between replicas. */
  readonly resourceUpdates?: ResourceUpdateRelay;
}
