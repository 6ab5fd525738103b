import type { Frame } from "@patchbay/jsonrpc-core";
import type { EventStore } from "@patchbay/transport-http";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { Rejections } from "./rejections.js";

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions {
  readonly client: Redis;
  /** Key prefix, `patchbay:` by default. */
  readonly prefix: string;
  /** Events kept per SSE stream, oldest trimmed first. Default 100. */
  readonly maxEventsPerStream?: number;
  /** A stream's events expire this long after its last event (the session idle TTL). */
  readonly ttlMs: number;
  readonly onWarning: (message: string) => void;
  /** Seals each stored event for its stream: one written by anything else is never replayed. */
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
}

const SEPARATOR = "@";

/** The Redis stream holding the events of SSE stream `streamId`. */
export function eventsKeyOf(prefix: string, streamId: string): string {
  return `${prefix}events:${streamId}`;
}

/**
 * The stream an event id of this store names (`<streamId>@<entry id>`, or `<streamId>@unstored-<n>`
 * for an event sent while Redis was down); `undefined` for an id this store never issues.
 */
export function streamOfEventId(eventId: string): string | undefined {
  const at = eventId.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  return /^(\d+-\d+|unstored-\d+)$/.test(eventId.slice(at + 1)) ? eventId.slice(0, at) : undefined;
}

/**
 * The SSE event store of replicas: each stream is a Redis stream `<prefix>events:<streamId>`
 * (XADD, trimmed to `maxEventsPerStream`, expiring after `ttlMs`), and an event id is
 * `<streamId>@<entry id>`, so any replica replays a stream after `Last-Event-ID` in order, each
 * event once. While Redis is down, events still go out but cannot be resumed (a warning says so).
 */
export function createRedisEventStore(options: RedisEventStoreOptions): EventStore {
  const { client, prefix } = options;
  const maxEvents = options.maxEventsPerStream ?? 100;
  const keyOf = (streamId: string) => eventsKeyOf(prefix, streamId);
  let unstored = 0;
  let degraded = false;
  return {
    async storeEvent(streamId, message) {
      const key = keyOf(streamId);
      const data =
        message === undefined ? "" : options.seal.sealRecord(key, JSON.stringify(message));
      try {
        const results = await client
          .multi()
          .xadd(key, "MAXLEN", "~", maxEvents, "*", "m", data)
          .pexpire(key, options.ttlMs)
          .exec();
        const entryId = results?.[0]?.[1];
        if (typeof entryId !== "string") throw results?.[0]?.[0] ?? new Error("no entry id");
        degraded = false;
        return `${streamId}${SEPARATOR}${entryId}`;
      } catch (error) {
        unstored += 1;
        // Once per outage: every event sent meanwhile is just as unresumable.
        if (!degraded) {
          options.onWarning(
            `SSE events are sent but not stored (not resumable) until Redis is back: ${String(error)}`,
          );
        }
        degraded = true;
        return `${streamId}${SEPARATOR}unstored-${unstored}`;
      }
    },
    async replayEventsAfter(lastEventId, send) {
      const at = lastEventId.lastIndexOf(SEPARATOR);
      if (at <= 0) return undefined;
      const streamId = lastEventId.slice(0, at);
      const entryId = lastEventId.slice(at + 1);
      if (!/^\d+-\d+$/.test(entryId)) return undefined;
      // From the last event seen, inclusive: when it was trimmed away, events may be missing, and
      // the id counts as unknown (a fresh stream) rather than a replay with a gap.
      const entries = await client.xrange(keyOf(streamId), entryId, "+", "COUNT", maxEvents + 1);
      if (entries[0]?.[0] !== entryId) return undefined;
      const key = keyOf(streamId);
      for (const [id, fields] of entries.slice(1)) {
        const data = fields[1];
        if (data === undefined || data === "") continue;
        const json = options.seal.openRecord(key, data);
        if (json === undefined) options.rejections.reject(key);
        else await send(`${streamId}${SEPARATOR}${id}`, JSON.parse(json) as Frame);
      }
      return streamId;
    },
    forgetStream(streamId) {
      client.del(keyOf(streamId)).catch(() => {
        // The key expires with its TTL anyway.
      });
    },
  };
}
