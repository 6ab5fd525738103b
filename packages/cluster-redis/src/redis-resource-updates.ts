import { randomUUID } from "node:crypto";
import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";
import type { Rejections } from "./rejections.js";

/** How long a replica waits for the others to subscribe a URI its listen stream wants (default). */
export const RESOURCE_WANT_TIMEOUT_MS = 5000;
/** Most wants of one other replica that a replica starting up reads (and subscribes for). */
export const MAX_RESTORED_WANTS = 10_000;
/** Most wants of other replicas a replica remembers handing to its router (to hand each once). */
const MAX_TOLD_WANTS = 100_000;

/** What a replica hears (the router's `ResourceUpdateListener`). */
export interface ResourceUpdateListener {
  wanted(from: string, scope: string, uri: string, wanted: boolean): Promise<void>;
  updated(scope: string, uri: string): void;
}

interface Want {
  readonly id: string;
  readonly from: string;
  readonly scope: string;
  readonly uri: string;
  readonly wanted: boolean;
}

type InboxMessage = { t: "ack"; id: string } | { t: "updated"; scope: string; uri: string };

/**
 * The router's `ResourceUpdateRelay` on Redis. A want is published on `<prefix>resource-wants`;
 * every other replica subscribes (or unsubscribes) its backends for it and acknowledges on the
 * asker's `<prefix>resource-updates:<replica id>`, and the asker resolves once as many replicas
 * answered as PUBLISH reached (or after `wantTimeoutMs`, with a warning). An update goes to the
 * wanting replica's channel; PUBLISH reaching nobody means that replica is gone.
 *
 * The wants in force are also kept in a hash per replica, `<prefix>resource-wanted:<replica id>`
 * (field: scope and URI), written with the PUBLISH, so that a replica started later subscribes its
 * backends for the streams of every live replica (as its heartbeat found them) when it starts
 * listening. A replica clears its own hash then (left from a run under the same id), a replica
 * found gone has its hash deleted, and each replica writes its wants again when Redis comes back
 * (empty).
 */
export function createRedisResourceUpdates(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
  readonly prefix: string;
  readonly replicaId: string;
  readonly onWarning: (message: string) => void;
  /** How long a want waits for the other replicas. Default {@link RESOURCE_WANT_TIMEOUT_MS}. */
  readonly wantTimeoutMs?: number;
  /** Hears Redis come back after an outage. */
  readonly onAvailable?: (listener: () => void) => void;
  /** The replicas live as of the last heartbeat. Default: none (nothing read at start). */
  readonly liveReplicas?: () => readonly string[];
}): {
  want(scope: string, uri: string, wanted: boolean): Promise<void>;
  deliver(replicaId: string, scope: string, uri: string): Promise<boolean>;
  subscribe(listener: ResourceUpdateListener): Unsubscribe;
} {
  const { client, replicaId } = options;
  const wantsChannel = `${options.prefix}resource-wants`;
  const inboxOf = (replica: string) => `${options.prefix}resource-updates:${replica}`;
  const send = (replica: string, message: InboxMessage) => {
    const channel = inboxOf(replica);
    return client.publish(channel, options.seal.seal(channel, JSON.stringify(message)));
  };
  const waiting = new Map<string, { received: number; expected?: number; done(): void }>();
  let listener: ResourceUpdateListener | undefined;
  const timeoutMs = options.wantTimeoutMs ?? RESOURCE_WANT_TIMEOUT_MS;
  const hashes = createWantedHashes(options);
  /** Wants of other replicas handed to the listener (read at start, or heard), until they end. */
  const told = new Map<string, Promise<void>>();
  const toldKey = (from: string, scope: string, uri: string) => JSON.stringify([from, scope, uri]);

  /** Hands a want to the listener once, however often it is read or heard; resolves once done. */
  function tell(from: string, scope: string, uri: string, wanted: boolean): Promise<void> {
    if (listener === undefined) return Promise.resolve();
    const key = toldKey(from, scope, uri);
    if (!wanted) {
      told.delete(key);
      return listener.wanted(from, scope, uri, false);
    }
    const known = told.get(key);
    if (known !== undefined) return known;
    const done = listener.wanted(from, scope, uri, true).catch(() => {});
    if (told.size < MAX_TOLD_WANTS) told.set(key, done);
    return done;
  }

  options.subscriber.listen(wantsChannel, (text) => {
    const want = JSON.parse(text) as Want;
    if (want.from === replicaId) return;
    const acknowledge = () => {
      send(want.from, { t: "ack", id: want.id }).catch(() => {});
    };
    tell(want.from, want.scope, want.uri, want.wanted).then(acknowledge, acknowledge);
  });
  options.subscriber.listen(inboxOf(replicaId), (text) => {
    const message = JSON.parse(text) as InboxMessage;
    if (message.t === "updated") return listener?.updated(message.scope, message.uri);
    const entry = waiting.get(message.id);
    if (entry === undefined) return;
    entry.received += 1;
    if (entry.expected !== undefined && entry.received >= entry.expected) entry.done();
  });

  return {
    async want(scope, uri, wanted) {
      const id = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const answered = new Promise<void>((resolve) => {
        waiting.set(id, { received: 0, done: resolve });
        timer = setTimeout(() => {
          options.onWarning(
            `not every replica subscribed ${uri} within ${timeoutMs} ms; updates from those may be missed`,
          );
          resolve();
        }, timeoutMs);
      });
      try {
        const want: Want = { id, from: replicaId, scope, uri, wanted };
        const receivers = await hashes.record(scope, uri, wanted, () =>
          client.publish(wantsChannel, options.seal.seal(wantsChannel, JSON.stringify(want))),
        );
        const entry = waiting.get(id);
        if (entry !== undefined) {
          // This replica listens on the channel too.
          entry.expected = receivers - 1;
          if (entry.received >= entry.expected) entry.done();
        }
        await answered;
      } catch (error) {
        options.onWarning(
          `cannot tell the other replicas about ${uri} (updates from their backends are missed): ${String(error)}`,
        );
      } finally {
        clearTimeout(timer);
        waiting.delete(id);
      }
    },
    async deliver(replica, scope, uri) {
      const delivered = (await send(replica, { t: "updated", scope, uri })) > 0;
      if (!delivered) {
        hashes.forget(replica);
        for (const key of [...told.keys()]) {
          if ((JSON.parse(key) as string[])[0] === replica) told.delete(key);
        }
      }
      return delivered;
    },
    subscribe(next) {
      listener = next;
      hashes
        .restore((from, scope, uri) => tell(from, scope, uri, true))
        .catch((error: unknown) => {
          options.onWarning(
            `cannot read the resource subscriptions of the other replicas' listen streams (updates from this replica's backends are missed for them): ${String(error)}`,
          );
        });
      return () => {
        if (listener === next) listener = undefined;
      };
    },
  };
}

/**
 * The wants in force of each replica, in Redis: this replica's own (kept in memory too, to be
 * written again when Redis comes back empty), and the others', read when this replica starts
 * listening.
 */
function createWantedHashes(options: {
  readonly client: Redis;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
  readonly prefix: string;
  readonly replicaId: string;
  readonly onWarning: (message: string) => void;
  readonly onAvailable?: (listener: () => void) => void;
  readonly liveReplicas?: () => readonly string[];
}) {
  const { client, replicaId } = options;
  const keyOf = (replica: string) => `${options.prefix}resource-wanted:${replica}`;
  const own = new Set<string>();
  const fieldOf = (scope: string, uri: string) => JSON.stringify([scope, uri]);
  // Each want's value seals its replica and field: a want written by anything else is dropped.
  const purposeOf = (replica: string, field: string) => `${keyOf(replica)} ${field}`;
  const sealedWant = (field: string) => options.seal.sealRecord(purposeOf(replicaId, field), "1");
  options.onAvailable?.(() => {
    if (own.size === 0) return;
    client
      .hset(
        keyOf(replicaId),
        Object.fromEntries([...own].map((field) => [field, sealedWant(field)])),
      )
      .catch((error: unknown) => {
        options.onWarning(`cannot store this replica's resource wants again: ${String(error)}`);
      });
  });
  return {
    /** Records a want (or its end), then runs `publish` (pipelined after it); its receivers. */
    async record(scope: string, uri: string, wanted: boolean, publish: () => Promise<number>) {
      const field = fieldOf(scope, uri);
      if (wanted) own.add(field);
      else own.delete(field);
      const key = keyOf(replicaId);
      const change = wanted ? client.hset(key, field, sealedWant(field)) : client.hdel(key, field);
      const [, receivers] = await Promise.all([change, publish()]);
      return receivers;
    },
    /** A replica found gone wants nothing any more. */
    forget(replica: string): void {
      client.del(keyOf(replica)).catch(() => {});
    },
    /** Hands `tell` the wants of every other live replica. */
    async restore(
      tell: (from: string, scope: string, uri: string) => Promise<void>,
    ): Promise<void> {
      // A previous run under this id had streams that ended with it.
      if (own.size === 0) await client.del(keyOf(replicaId));
      for (const replica of options.liveReplicas?.() ?? []) {
        if (replica === replicaId) continue;
        let cursor = "0";
        let read = 0;
        do {
          const [next, flat] = await client.hscan(keyOf(replica), cursor, "COUNT", 500);
          cursor = next;
          const subscribing: Promise<void>[] = [];
          for (let index = 0; index < flat.length && read < MAX_RESTORED_WANTS; index += 2) {
            read += 1;
            const field = flat[index] as string;
            const value = flat[index + 1] as string;
            if (options.seal.openRecord(purposeOf(replica, field), value) === undefined) {
              options.rejections.reject(keyOf(replica));
              continue;
            }
            const [scope, uri] = JSON.parse(field) as [string, string];
            subscribing.push(tell(replica, scope, uri));
          }
          await Promise.all(subscribing);
        } while (cursor !== "0" && read < MAX_RESTORED_WANTS);
      }
    },
  };
}
