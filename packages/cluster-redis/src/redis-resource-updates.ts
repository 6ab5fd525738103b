import { randomUUID } from "node:crypto";
import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** How long a replica waits for the others to subscribe a URI its listen stream wants. */
export const RESOURCE_WANT_TIMEOUT_MS = 5000;

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
 * answered as PUBLISH reached (or after {@link RESOURCE_WANT_TIMEOUT_MS}, with a warning). An update
 * goes to the wanting replica's channel; PUBLISH reaching nobody means that replica is gone.
 */
export function createRedisResourceUpdates(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly prefix: string;
  readonly replicaId: string;
  readonly onWarning: (message: string) => void;
}): {
  want(scope: string, uri: string, wanted: boolean): Promise<void>;
  deliver(replicaId: string, scope: string, uri: string): Promise<boolean>;
  subscribe(listener: ResourceUpdateListener): Unsubscribe;
} {
  const { client, replicaId } = options;
  const wantsChannel = `${options.prefix}resource-wants`;
  const inboxOf = (replica: string) => `${options.prefix}resource-updates:${replica}`;
  const send = (replica: string, message: InboxMessage) =>
    client.publish(inboxOf(replica), JSON.stringify(message));
  const waiting = new Map<string, { received: number; expected?: number; done(): void }>();
  let listener: ResourceUpdateListener | undefined;

  options.subscriber.listen(wantsChannel, (text) => {
    const want = JSON.parse(text) as Want;
    if (want.from === replicaId) return;
    const acknowledge = () => {
      send(want.from, { t: "ack", id: want.id }).catch(() => {});
    };
    (listener?.wanted(want.from, want.scope, want.uri, want.wanted) ?? Promise.resolve()).then(
      acknowledge,
      acknowledge,
    );
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
            `not every replica subscribed ${uri} within ${RESOURCE_WANT_TIMEOUT_MS} ms; updates from those may be missed`,
          );
          resolve();
        }, RESOURCE_WANT_TIMEOUT_MS);
      });
      try {
        const want: Want = { id, from: replicaId, scope, uri, wanted };
        const receivers = await client.publish(wantsChannel, JSON.stringify(want));
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
      return (await send(replica, { t: "updated", scope, uri })) > 0;
    },
    subscribe(next) {
      listener = next;
      return () => {
        if (listener === next) listener = undefined;
      };
    },
  };
}
