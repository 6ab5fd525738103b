import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";

/** One subscribed connection shared by every channel a replica listens to. */
export interface RedisSubscriber {
  /** Calls `listener` with each message published on `channel`. */
  listen(channel: string, listener: (message: string) => void): Unsubscribe;
}

/**
 * Subscribes lazily, one SUBSCRIBE per channel; ioredis subscribes again by itself after a
 * reconnection. A listener that throws does not stop the others.
 */
export function createRedisSubscriber(
  connection: Redis,
  onWarning: (message: string) => void,
): RedisSubscriber {
  const listeners = new Map<string, Set<(message: string) => void>>();
  connection.on("message", (channel: string, message: string) => {
    for (const listener of listeners.get(channel) ?? []) {
      try {
        listener(message);
      } catch (error) {
        onWarning(`a listener of ${channel} failed: ${String(error)}`);
      }
    }
  });
  return {
    listen(channel, listener) {
      let set = listeners.get(channel);
      if (set === undefined) {
        set = new Set();
        listeners.set(channel, set);
        connection.subscribe(channel).catch((error: unknown) => {
          onWarning(`cannot subscribe to ${channel}: ${String(error)}`);
        });
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
}
