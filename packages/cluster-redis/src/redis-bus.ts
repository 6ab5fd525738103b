import type { ClusterBus, ClusterDelivery } from "@patchbay/http-gateway";
import type { Redis } from "ioredis";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** The message that only asks whether a replica still listens (see `createRedisCalls`). */
export const PING = "ping";

/** The bus channel of replica `replicaId`. */
export function replicaChannel(prefix: string, replicaId: string): string {
  return `${prefix}replica:${replicaId}`;
}

/** A bus over Redis pub/sub: one channel `<prefix>replica:<id>` per replica, and `<prefix>broadcast`. */
export function createRedisBus(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly prefix: string;
  readonly replicaId: string;
  readonly onWarning: (message: string) => void;
}): ClusterBus {
  const channelOf = (replicaId: string) => replicaChannel(options.prefix, replicaId);
  const everyone = `${options.prefix}broadcast`;
  return {
    async send(replicaId, delivery) {
      const receivers = await options.client.publish(
        channelOf(replicaId),
        JSON.stringify(delivery),
      );
      if (receivers === 0) {
        options.onWarning(`replica ${replicaId} is gone: a message for it was dropped`);
      }
    },
    async broadcast(delivery) {
      await options.client.publish(everyone, JSON.stringify(delivery));
    },
    onBroadcast(listener) {
      return options.subscriber.listen(everyone, (message) => {
        listener(JSON.parse(message) as ClusterDelivery);
      });
    },
    onDelivery(listener) {
      return options.subscriber.listen(channelOf(options.replicaId), (message) => {
        if (message !== PING) listener(JSON.parse(message) as ClusterDelivery);
      });
    },
  };
}
