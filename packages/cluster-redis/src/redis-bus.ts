import type { ClusterBus, ClusterDelivery } from "@patchbay/http-gateway";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import { PING, type RedisSubscriber } from "./redis-subscriber.js";

export { PING };

/** The bus channel of replica `replicaId`. */
export function replicaChannel(prefix: string, replicaId: string): string {
  return `${prefix}replica:${replicaId}`;
}

/**
 * What a delivery published by a script to whichever replica it finds (a GET stream's holder) is
 * sealed for: any replica's bus channel takes it.
 */
export function anyReplicaChannel(prefix: string): string {
  return replicaChannel(prefix, "*");
}

/** A bus over Redis pub/sub: one channel `<prefix>replica:<id>` per replica, and `<prefix>broadcast`. */
export function createRedisBus(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly prefix: string;
  readonly replicaId: string;
  readonly onWarning: (message: string) => void;
}): ClusterBus {
  const { seal } = options;
  const channelOf = (replicaId: string) => replicaChannel(options.prefix, replicaId);
  const everyone = `${options.prefix}broadcast`;
  return {
    async send(replicaId, delivery) {
      const channel = channelOf(replicaId);
      const receivers = await options.client.publish(
        channel,
        seal.seal(channel, JSON.stringify(delivery)),
      );
      if (receivers === 0) {
        options.onWarning(`replica ${replicaId} is gone: a message for it was dropped`);
      }
    },
    async broadcast(delivery) {
      await options.client.publish(everyone, seal.seal(everyone, JSON.stringify(delivery)));
    },
    onBroadcast(listener) {
      return options.subscriber.listen(everyone, (message) => {
        listener(JSON.parse(message) as ClusterDelivery);
      });
    },
    onDelivery(listener) {
      return options.subscriber.listen(
        channelOf(options.replicaId),
        (message) => listener(JSON.parse(message) as ClusterDelivery),
        anyReplicaChannel(options.prefix),
      );
    },
  };
}
