import type { ClusterSseSessions, ForwardedSseMessage, SseHolder } from "@patchbay/http-gateway";
import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";
import type { Rejections } from "./rejections.js";

/** The legacy SSE sessions of a replica, and what stops refreshing their records. */
export interface RedisSseSessions extends ClusterSseSessions {
  /** The channel forwarded messages reach this replica on. */
  readonly channel: string;
  /** Stops refreshing the records of the streams held here (they expire unless released). */
  stop(): void;
}

/**
 * Legacy HTTP+SSE session holders as keys `<prefix>sse-holder:<session id>` (JSON: replica, owning
 * token name, profile) that expire after the session TTL; the holder writes the records of the
 * streams it holds again every third of the TTL (so they also come back after Redis lost them). Forwarded POSTs travel on `<prefix>sse-replica:<id>`.
 */
export function createRedisSseSessions(options: {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
  readonly prefix: string;
  readonly replicaId: string;
  readonly ttlMs: number;
  readonly onWarning: (message: string) => void;
}): RedisSseSessions {
  const { client, prefix, replicaId, ttlMs, seal } = options;
  const keyOf = (sessionId: string) => `${prefix}sse-holder:${sessionId}`;
  const channelOf = (id: string) => `${prefix}sse-replica:${id}`;
  const channel = channelOf(replicaId);
  /** The records of the streams held here, by session id (JSON), to write again at each refresh. */
  const held = new Map<string, string>();
  const listeners = new Set<(message: ForwardedSseMessage) => void>();
  options.subscriber.listen(channel, (text) => {
    const message = JSON.parse(text) as ForwardedSseMessage;
    for (const listener of listeners) listener(message);
  });
  const refresh = setInterval(
    () => {
      if (held.size === 0) return;
      const pipeline = client.pipeline();
      // Written whole, not only re-timed: a Redis that came back empty has them again.
      for (const [sessionId, json] of held) pipeline.set(keyOf(sessionId), json, "PX", ttlMs);
      pipeline.exec().catch((error: unknown) => {
        options.onWarning(`cannot refresh legacy SSE session records: ${String(error)}`);
      });
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  refresh.unref();
  return {
    channel,
    async hold(sessionId, owner, profile) {
      const record: SseHolder = { replicaId, owner, profile };
      const json = seal.sealRecord(keyOf(sessionId), JSON.stringify(record));
      await client.set(keyOf(sessionId), json, "PX", ttlMs);
      held.set(sessionId, json);
    },
    async release(sessionId) {
      held.delete(sessionId);
      await client.del(keyOf(sessionId));
    },
    async holderOf(sessionId) {
      const text = await client.get(keyOf(sessionId));
      if (text === null) return undefined;
      const json = seal.openRecord(keyOf(sessionId), text);
      if (json === undefined) options.rejections.reject(keyOf(sessionId));
      return json === undefined ? undefined : (JSON.parse(json) as SseHolder);
    },
    async forward(target, message) {
      const to = channelOf(target);
      return (await client.publish(to, seal.seal(to, JSON.stringify(message)))) > 0;
    },
    onForwarded(listener): Unsubscribe {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    stop() {
      clearInterval(refresh);
    },
  };
}
