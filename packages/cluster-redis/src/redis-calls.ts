import type { ClusterCall, ClusterCalls, LostCall } from "@patchbay/http-gateway";
import type { JSONRPCId, JSONRPCMessage } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import { PING, replicaChannel } from "./redis-bus.js";
import { eventsKeyOf, streamOfEventId } from "./redis-event-store.js";

/**
 * KEYS: the session's calls, the answer's stream (events), the session's failed-over streams.
 * ARGV: the call's field, its listed value, the answer (JSON; empty: no stream), the stream id, most
 * events kept, TTL. Takes the call off the list when it is still listed as read and, when its
 * stream is known, stores the answer on it and marks the stream, in one step: a client resuming
 * that stream either took the call first or finds the answer stored. Returns 1 when taken.
 */
const FAIL_OVER_CALL = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if ARGV[3] == '' then return 1 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'm', ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('HSET', KEYS[3], ARGV[4], '1')
redis.call('PEXPIRE', KEYS[3], ARGV[6])
return 1
`;

/** The script above, as ioredis defines it on the client (EVALSHA, EVAL once). */
interface FailOverScripts {
  patchbayFailOverCall(
    callsKey: string,
    eventsKey: string,
    failedOverKey: string,
    field: string,
    value: string,
    answer: string,
    streamId: string,
    maxEvents: number,
    ttlMs: number,
  ): Promise<number>;
}

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
 *
 * Once the heartbeat says a replica is gone, one replica (the first to set
 * `<prefix>failover:{<replica id>}`, for a minute) scans the lists for that replica's calls
 * (`failOver`; nothing is added per call) and takes each with a script that also stores its answer
 * on its stream, unless a client resuming the stream took it first. Streams whose lost calls'
 * answers were stored are marked in `<prefix>failed-over:<session id>`.
 */
export function createRedisCalls(options: {
  readonly client: Redis;
  readonly prefix: string;
  readonly replicaId: string;
  readonly ttlMs: number;
  /** Events kept per SSE stream (as the event store keeps them). */
  readonly maxEventsPerStream: number;
  /** Seals a lost call's answer as the event store seals the events of its stream. */
  readonly seal: ClusterSeal;
}): ClusterCalls {
  const { client, prefix, replicaId } = options;
  const keyOf = (sessionId: string) => `${prefix}call-streams:${sessionId}`;
  const failedOverKeyOf = (sessionId: string) => `${prefix}failed-over:${sessionId}`;
  if (!("patchbayFailOverCall" in client)) {
    client.defineCommand("patchbayFailOverCall", { numberOfKeys: 3, lua: FAIL_OVER_CALL });
  }
  const scripts = client as unknown as FailOverScripts;
  const ignore = () => {
    // Best effort: a call missing from the list is answered by the client's own timeout.
  };
  /** The replicas among `owners` that no longer listen on their bus channel. */
  async function goneAmong(owners: ReadonlySet<string>): Promise<Set<string>> {
    const pipeline = client.pipeline();
    // Unsealed: a replica's bus drops a ping unread; only its receiver count matters here.
    for (const owner of owners) pipeline.publish(replicaChannel(prefix, owner), PING);
    const receivers = (await pipeline.exec()) ?? [];
    return new Set([...owners].filter((_, index) => receivers[index]?.[1] === 0));
  }
  /** Takes a lost call off its list, its answer stored on its stream, unless taken meanwhile. */
  async function takeLostCall(
    call: LostCall,
    field: string,
    value: string,
    answerOf: (call: LostCall) => JSONRPCMessage,
  ): Promise<boolean> {
    const { sessionId, streamId } = call;
    const taken = await scripts.patchbayFailOverCall(
      keyOf(sessionId),
      streamId === undefined ? keyOf(sessionId) : eventsKeyOf(prefix, streamId),
      failedOverKeyOf(sessionId),
      field,
      value,
      streamId === undefined
        ? ""
        : options.seal.sealRecord(eventsKeyOf(prefix, streamId), JSON.stringify(answerOf(call))),
      streamId ?? "",
      options.maxEventsPerStream,
      options.ttlMs,
    );
    return taken === 1;
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
    async failOver(lost, answerOf) {
      // One replica fails the calls over; the others, noticing too, find the claim taken.
      const claim = await client.set(`${prefix}failover:{${lost}}`, replicaId, "PX", 60_000, "NX");
      if (claim !== "OK") return [];
      const claimed: LostCall[] = [];
      for await (const keys of client.scanStream({ match: keyOf("*"), count: 500 })) {
        const reads = client.pipeline();
        for (const key of keys as string[]) reads.hgetall(key);
        const lists = (await reads.exec()) ?? [];
        for (const [index, key] of (keys as string[]).entries()) {
          const sessionId = key.slice(keyOf("").length);
          const listed = (lists[index]?.[1] ?? {}) as Record<string, string>;
          for (const [field, value] of Object.entries(listed)) {
            const call = decodeCall(field, value);
            if (call.replicaId !== lost) continue;
            const lostCall: LostCall = {
              sessionId,
              id: JSON.parse(field) as JSONRPCId,
              replicaId: lost,
              streamId: call.streamId,
            };
            if (await takeLostCall(lostCall, field, value, answerOf)) claimed.push(lostCall);
          }
        }
      }
      return claimed;
    },
    async markFailedOver(sessionId, streamId) {
      const key = failedOverKeyOf(sessionId);
      await client.pipeline().hset(key, streamId, "1").pexpire(key, options.ttlMs).exec();
    },
    async failedOver(sessionId, lastEventId) {
      const streamId = streamOfEventId(lastEventId);
      if (streamId === undefined) return false;
      return (await client.hexists(failedOverKeyOf(sessionId), streamId)) === 1;
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
