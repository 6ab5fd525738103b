import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { Rejections } from "./rejections.js";

/** The message that only asks whether a replica still listens (see `createRedisCalls`). */
export const PING = "ping";

/** One subscribed connection shared by every channel a replica listens to. */
export interface RedisSubscriber {
  /**
   * Calls `listener` with the payload of each message published on `channel` that opens with the
   * cluster's seal (sealed for `channel`, or for `alsoSealedFor` when given: a message a script
   * publishes to a channel it picks). Anything else is dropped and counted, never handed on.
   */
  listen(channel: string, listener: (message: string) => void, alsoSealedFor?: string): Unsubscribe;
  /** Resolves once Redis confirmed the subscription of every channel listened to so far. */
  settled(): Promise<void>;
}

/**
 * Subscribes lazily, one SUBSCRIBE per channel; ioredis subscribes again by itself after a
 * reconnection. A listener that throws does not stop the others.
 */
export function createRedisSubscriber(
  connection: Redis,
  seal: ClusterSeal,
  rejections: Rejections,
  onWarning: (message: string) => void,
): RedisSubscriber {
  const listeners = new Map<string, Set<(message: string) => void>>();
  const aliases = new Map<string, string>();
  let subscribing: Promise<unknown> = Promise.resolve();
  connection.on("message", (channel: string, message: string) => {
    const set = listeners.get(channel);
    if (set === undefined || message === PING) return;
    const alias = aliases.get(channel);
    const payload =
      seal.open(channel, message) ?? (alias === undefined ? undefined : seal.open(alias, message));
    if (payload === undefined) {
      rejections.reject(channel);
      return;
    }
    for (const listener of set) {
      try {
        listener(payload);
      } catch (error) {
        onWarning(`a listener of ${channel} failed: ${String(error)}`);
      }
    }
  });
  return {
    listen(channel, listener, alsoSealedFor) {
      let set = listeners.get(channel);
      if (set === undefined) {
        set = new Set();
        listeners.set(channel, set);
        const subscribed = connection.subscribe(channel).catch((error: unknown) => {
          onWarning(`cannot subscribe to ${channel}: ${String(error)}`);
        });
        subscribing = Promise.all([subscribing, subscribed]);
      }
      if (alsoSealedFor !== undefined) aliases.set(channel, alsoSealedFor);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    async settled() {
      await subscribing;
    },
  };
}
