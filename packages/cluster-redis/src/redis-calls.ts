import type { ClusterCall, ClusterCalls } from "@patchbay/http-gateway";
import type { JSONRPCId } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import { PING, replicaChannel } from "./redis-bus.js";
import { streamOfEventId } from "./redis-event-store.js";

/** One entry of a session's list of calls in flight. */
interface ListedCall {
  readonly field: string;
  readonly replicaId: string;
  /** The SSE stream that carries its answer; absent when unknown (a plain JSON answer). */
  readonly streamId: string | undefined;
}

/**
 * The calls in flight of each session in a hash `<prefix>call-streams:<session id>` (field: the
 * request id as JSON; value: `{"replica":…,"stream":…}`, the replica running it and the SSE stream
 * carrying its answer), expiring with the session. (Earlier versions listed calls without their
 * stream under `<prefix>calls:`; a new key keeps such a replica from taking these calls for its
 * own, during a rolling upgrade.) A replica counts as gone when a message published on its bus
 * channel reaches no subscriber: Redis closed its subscription when the process died (SIGKILL
 * included), long before a heartbeat would expire.
 */
export function createRedisCalls(options: {
  readonly client: Redis;
  readonly prefix: string;
  readonly replicaId: string;
  readonly ttlMs: number;
}): ClusterCalls {
  const { client, prefix, replicaId } = options;
  const keyOf = (sessionId: string) => `${prefix}call-streams:${sessionId}`;
  const ignore = () => {
    // Best effort: a call missing from the list is answered by the client's own timeout.
  };
  /** The replicas among `owners` that no longer listen on their bus channel. */
  async function goneAmong(owners: ReadonlySet<string>): Promise<Set<string>> {
    const pipeline = client.pipeline();
    for (const owner of owners) pipeline.publish(replicaChannel(prefix, owner), PING);
    const receivers = (await pipeline.exec()) ?? [];
    return new Set([...owners].filter((_, index) => receivers[index]?.[1] === 0));
  }
  return {
    started(sessionId, id, streamId) {
      const key = keyOf(sessionId);
      const value = JSON.stringify({ replica: replicaId, stream: streamId });
      client
        .pipeline()
        .hset(key, JSON.stringify(id), value)
        .pexpire(key, options.ttlMs)
        .exec()
        .catch(ignore);
    },
    ended(sessionId, id) {
      client.hdel(keyOf(sessionId), JSON.stringify(id)).catch(ignore);
    },
    async claimOrphaned(sessionId, lastEventId) {
      const streamId = streamOfEventId(lastEventId);
      if (streamId === undefined) return [];
      const key = keyOf(sessionId);
      // Only this session's list is read: an event id of another session's stream matches nothing.
      const listed = Object.entries(await client.hgetall(key)).map(([field, value]) =>
        decodeCall(field, value),
      );
      const candidates = listed.filter(
        (call) =>
          call.replicaId !== replicaId &&
          (call.streamId === streamId || call.streamId === undefined),
      );
      if (candidates.length === 0) return [];
      const gone = await goneAmong(new Set(candidates.map((call) => call.replicaId)));
      const orphans = candidates.filter((call) => gone.has(call.replicaId));
      if (orphans.length === 0) return [];
      const pipeline = client.pipeline();
      for (const call of orphans) pipeline.hdel(key, call.field);
      const deleted = (await pipeline.exec()) ?? [];
      const claimed: ClusterCall[] = [];
      orphans.forEach((call, index) => {
        // HDEL answers 1 to one caller only: each orphan is taken once across the cluster. A call
        // whose stream is unknown has no stream a client reads for it: it is only taken off the list.
        if (deleted[index]?.[1] !== 1 || call.streamId === undefined) return;
        claimed.push({
          id: JSON.parse(call.field) as JSONRPCId,
          replicaId: call.replicaId,
          streamId: call.streamId,
        });
      });
      return claimed;
    },
  };
}

/** Reads an entry (one that is not JSON names its replica alone, with no stream). */
function decodeCall(field: string, value: string): ListedCall {
  if (!value.startsWith("{")) return { field, replicaId: value, streamId: undefined };
  const parsed = JSON.parse(value) as { replica?: unknown; stream?: unknown };
  return {
    field,
    replicaId: String(parsed.replica),
    streamId: typeof parsed.stream === "string" ? parsed.stream : undefined,
  };
}
