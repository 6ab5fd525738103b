import type { ClusterCall, ClusterCalls, LostCall } from "@patchbay/http-gateway";
import type { JSONRPCId } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
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
 * Each replica also lists its calls in a set `<prefix>replica-calls:{<replica id>}` (members:
 * `[session id, request id as JSON]`), so that once its heartbeat says it is gone another replica
 * takes them all (`claimLost`): the set is renamed away by one replica only, and each call is then
 * taken off its session's hash, which a client resuming the stream meanwhile may have done first.
 * Streams whose lost calls' answers were stored are marked in `<prefix>failed-over:<session id>`.
 */
export function createRedisCalls(options: {
  readonly client: Redis;
  readonly prefix: string;
  readonly replicaId: string;
  readonly ttlMs: number;
  /** Events kept per SSE stream (as the event store keeps them). */
  readonly maxEventsPerStream: number;
}): ClusterCalls {
  const { client, prefix, replicaId } = options;
  const keyOf = (sessionId: string) => `${prefix}call-streams:${sessionId}`;
  // Tagged with the replica id, so that a rename stays in one Redis Cluster slot.
  const replicaKeyOf = (replica: string) => `${prefix}replica-calls:{${replica}}`;
  const failedOverKeyOf = (sessionId: string) => `${prefix}failed-over:${sessionId}`;
  const memberOf = (sessionId: string, id: JSONRPCId) => JSON.stringify([sessionId, id]);
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
    for (const owner of owners) pipeline.publish(replicaChannel(prefix, owner), PING);
    const receivers = (await pipeline.exec()) ?? [];
    return new Set([...owners].filter((_, index) => receivers[index]?.[1] === 0));
  }
  return {
    started(sessionId, id, streamId) {
      const key = keyOf(sessionId);
      const value = JSON.stringify({ replica: replicaId, stream: streamId });
      const own = replicaKeyOf(replicaId);
      client
        .pipeline()
        .hset(key, JSON.stringify(id), value)
        .pexpire(key, options.ttlMs)
        .sadd(own, memberOf(sessionId, id))
        .pexpire(own, options.ttlMs)
        .exec()
        .catch(ignore);
    },
    ended(sessionId, id) {
      client
        .pipeline()
        .hdel(keyOf(sessionId), JSON.stringify(id))
        .srem(replicaKeyOf(replicaId), memberOf(sessionId, id))
        .exec()
        .catch(ignore);
    },
    async failOver(lost, answerOf) {
      const source = replicaKeyOf(lost);
      const taken = `${source}:failover:${replicaId}`;
      // One replica renames the set away; the others find it gone and take nothing.
      const renamed = await client.rename(source, taken).then(
        () => true,
        () => false,
      );
      if (!renamed) return [];
      const members = await client.smembers(taken);
      await client.del(taken);
      const listed = members.map((member) => JSON.parse(member) as [string, JSONRPCId]);
      const reads = client.pipeline();
      for (const [sessionId, id] of listed) reads.hget(keyOf(sessionId), JSON.stringify(id));
      const values = (await reads.exec()) ?? [];
      const claimed: LostCall[] = [];
      for (const [index, [sessionId, id]] of listed.entries()) {
        const value = values[index]?.[1];
        if (typeof value !== "string") continue;
        const field = JSON.stringify(id);
        const { replicaId: owner, streamId } = decodeCall(field, value);
        // Still listed as running there: not answered, nor taken by a client's resume.
        if (owner !== lost) continue;
        const call: LostCall = { sessionId, id, replicaId: lost, streamId };
        const taken = await scripts.patchbayFailOverCall(
          keyOf(sessionId),
          streamId === undefined ? keyOf(sessionId) : eventsKeyOf(prefix, streamId),
          failedOverKeyOf(sessionId),
          field,
          value,
          streamId === undefined ? "" : JSON.stringify(answerOf(call)),
          streamId ?? "",
          options.maxEventsPerStream,
          options.ttlMs,
        );
        if (taken === 1) claimed.push(call);
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
