import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClusterSeal } from "./cluster-seal.js";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { connectRedis } from "./redis-connection.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
let raw: Redis;
const clusters: RedisCluster[] = [];
let prefixCounter = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  raw = await connectRedis({ url: redis.url });
});
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.close()));
  raw.disconnect();
  await redis.stop();
});

/** Two live replicas on a key prefix of their own. */
async function replicas(): Promise<{ prefix: string; a: RedisCluster; b: RedisCluster }> {
  prefixCounter += 1;
  const prefix = `calls${prefixCounter}:`;
  const [a, b] = await Promise.all(
    ["a", "b"].map((replicaId) =>
      createRedisCluster({
        url: redis.url,
        secret,
        replicaId,
        keyPrefix: prefix,
        sessionTtlMs: 60_000,
      }),
    ),
  );
  clusters.push(a as RedisCluster, b as RedisCluster);
  return { prefix, a: a as RedisCluster, b: b as RedisCluster };
}

/** Lists a call as running on a replica that never joined (a replica that is gone). */
async function listOnGone(prefix: string, sessionId: string, id: number, stream?: string) {
  const value = JSON.stringify({ replica: "gone", stream });
  await raw.hset(`${prefix}call-streams:${sessionId}`, JSON.stringify(id), value);
}

describe("the calls in flight", () => {
  it("are listed with the replica and the stream that carries each answer, and leave when answered", async () => {
    const { prefix, a } = await replicas();
    a.calls.started("s1", 1, "p-1");
    a.calls.started("s1", "two");
    // Fire and forget: a command on the same connection comes back after them.
    await a.heartbeat();
    expect(await raw.hgetall(`${prefix}call-streams:s1`)).toEqual({
      "1": JSON.stringify({ replica: "a", stream: "p-1" }),
      '"two"': JSON.stringify({ replica: "a" }),
    });
    a.calls.ended("s1", 1);
    await a.heartbeat();
    expect(Object.keys(await raw.hgetall(`${prefix}call-streams:s1`))).toEqual(['"two"']);
  });

  it("hand a resumed stream's orphaned calls to one replica only, and only that stream's", async () => {
    const { prefix, a, b } = await replicas();
    for (const id of [1, 2]) await listOnGone(prefix, "s1", id, "p-1");
    await listOnGone(prefix, "s1", 3, "p-2");
    const [byA, byB] = await Promise.all([
      a.calls.claimOrphaned("s1", "p-1@1700000000000-0"),
      b.calls.claimOrphaned("s1", "p-1@1700000000000-0"),
    ]);
    const claimed = [...byA, ...byB].map((call) => call.id).sort();
    expect(claimed).toEqual([1, 2]);
    expect([...byA, ...byB].every((call) => call.replicaId === "gone")).toBe(true);
    expect(await a.calls.claimOrphaned("s1", "p-1@1700000000000-1")).toEqual([]);
    // An event sent while Redis was down names its stream too.
    expect(await b.calls.claimOrphaned("s1", "p-2@unstored-4")).toEqual([
      { id: 3, replicaId: "gone", streamId: "p-2" },
    ]);
  });

  it("claim nothing for another session's stream, a live replica's call, or a malformed id", async () => {
    const { prefix, a, b } = await replicas();
    // Replica a listens on its bus channel (a gateway does from its start).
    const listening = await connectRedis({ url: redis.url });
    await listening.subscribe(`${prefix}replica:a`);
    await listOnGone(prefix, "s1", 1, "p-1");
    a.calls.started("s1", 2, "p-1");
    await a.heartbeat();
    expect(await b.calls.claimOrphaned("s2", "p-1@1700000000000-0")).toEqual([]);
    expect(await b.calls.claimOrphaned("s1", "p-1")).toEqual([]);
    expect(await b.calls.claimOrphaned("s1", "p-1@x")).toEqual([]);
    expect(await b.calls.claimOrphaned("s1", "p-1@1700000000000-0")).toEqual([
      { id: 1, replicaId: "gone", streamId: "p-1" },
    ]);
    expect(Object.keys(await raw.hgetall(`${prefix}call-streams:s1`))).toEqual(["2"]);
    listening.disconnect();
  });

  it("take a gone replica's calls without a known stream off the list, unanswered", async () => {
    const { prefix, b } = await replicas();
    await listOnGone(prefix, "s1", 1);
    // An entry that names its replica alone.
    await raw.hset(`${prefix}call-streams:s1`, "2", "gone");
    expect(await b.calls.claimOrphaned("s1", "s1.standalone@1700000000000-0")).toEqual([]);
    expect(await raw.hlen(`${prefix}call-streams:s1`)).toBe(0);
  });

  it("of a lost replica are failed over once across the replicas, each answer stored on its stream", async () => {
    const { prefix, a, b } = await replicas();
    const lost = await createRedisCluster({
      url: redis.url,
      secret,
      replicaId: "lost",
      keyPrefix: prefix,
      sessionTtlMs: 60_000,
    });
    clusters.push(lost);
    lost.calls.started("s1", 1, "p-1");
    lost.calls.started("s1", 2);
    lost.calls.started("s2", 3, "p-3");
    lost.calls.ended("s2", 3);
    await lost.heartbeat();
    const answerOf = (call: { id: unknown }) => ({
      jsonrpc: "2.0" as const,
      id: call.id as number,
      error: { code: -32017, message: "lost" },
    });
    const [byA, byB] = await Promise.all([
      a.calls.failOver?.("lost", answerOf),
      b.calls.failOver?.("lost", answerOf),
    ]);
    // One replica takes the lot; the other finds nothing left.
    const taken = [...(byA ?? []), ...(byB ?? [])].sort((x, y) => Number(x.id) - Number(y.id));
    expect([byA?.length, byB?.length].sort()).toEqual([0, 2]);
    expect(taken).toEqual([
      { sessionId: "s1", id: 1, replicaId: "lost", streamId: "p-1" },
      { sessionId: "s1", id: 2, replicaId: "lost", streamId: undefined },
    ]);
    expect(await raw.hlen(`${prefix}call-streams:s1`)).toBe(0);
    const stored = await raw.xrange(`${prefix}events:p-1`, "-", "+");
    const events = createClusterSeal([secret]);
    const opened = stored.map(([, fields]) =>
      events.openRecord(`${prefix}events:p-1`, fields[1] as string),
    );
    expect(opened.map((json) => JSON.parse(json as string))).toEqual([answerOf({ id: 1 })]);
    expect(await a.calls.failedOver?.("s1", "p-1@1700000000000-0")).toBe(true);
    expect(await a.calls.failedOver?.("s1", "p-3@1700000000000-0")).toBe(false);
    expect(await a.calls.failedOver?.("s2", "p-1@1700000000000-0")).toBe(false);
    expect(await a.calls.failOver?.("lost", answerOf)).toEqual([]);
  });

  it("of a lost replica already taken by a client's resume are not failed over again", async () => {
    const { prefix, b } = await replicas();
    await listOnGone(prefix, "s1", 1, "p-1");
    expect(await b.calls.claimOrphaned("s1", "p-1@1700000000000-0")).toHaveLength(1);
    expect(await b.calls.failOver?.("gone", () => ({ jsonrpc: "2.0", id: 1, result: {} }))).toEqual(
      [],
    );
    expect(await raw.exists(`${prefix}events:p-1`)).toBe(0);
  });

  it("of a replica seen live and then gone are told, once, to the replicas that watched it", async () => {
    prefixCounter += 1;
    const prefix = `calls${prefixCounter}:`;
    // A replica as the heartbeat sees one: its status record, and its presence subscription.
    const ghost = await connectRedis({ url: redis.url });
    await ghost.subscribe(`${prefix}presence:ghost`);
    const now = Date.now();
    const status = { startedAt: now, beatAt: now, expiresAt: now + 60_000 };
    await raw.hset(`${prefix}replica-status`, "ghost", JSON.stringify(status));
    const watcher = await createRedisCluster({
      url: redis.url,
      secret,
      replicaId: "watcher",
      keyPrefix: prefix,
      sessionTtlMs: 60_000,
      heartbeatIntervalMs: 50,
    });
    clusters.push(watcher);
    const told: string[] = [];
    const gone = new Promise<void>((resolve) => {
      watcher.onReplicaGone?.((replicaId) => {
        told.push(replicaId);
        resolve();
      });
    });
    expect(watcher.liveReplicas).toBe(2);
    // Killed: Redis drops its subscription; its record still says live for a minute.
    ghost.disconnect();
    await gone;
    await watcher.heartbeat();
    await watcher.heartbeat();
    expect(told).toEqual(["ghost"]);
    // A listener added later hears it too.
    const late = await new Promise<string>((resolve) => watcher.onReplicaGone?.(resolve));
    expect(late).toBe("ghost");
  });
});
