import { randomBytes } from "node:crypto";
import type { ForwardedSseMessage } from "@patchbay/http-gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClusterSeal } from "./cluster-seal.js";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { connectRedis } from "./redis-connection.js";
import { createRedisSseSessions } from "./redis-sse-sessions.js";
import { createRedisSubscriber } from "./redis-subscriber.js";
import { createRejections } from "./rejections.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
const clusters: RedisCluster[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.close()));
  await redis.stop();
});

async function replicas(ids: string[]): Promise<RedisCluster[]> {
  const started = await Promise.all(
    ids.map((replicaId) =>
      createRedisCluster({
        url: redis.url,
        secret,
        replicaId,
        keyPrefix: "sse:",
        sessionTtlMs: 60_000,
      }),
    ),
  );
  clusters.push(...started);
  return started;
}

const message: ForwardedSseMessage = {
  sessionId: "s1",
  owner: "alice",
  profile: "",
  frame: { jsonrpc: "2.0", id: 1, method: "ping" },
};

describe("legacy SSE sessions across replicas", () => {
  it("record the holder, carry a forwarded message to it, and forget it on release", async () => {
    const [a, b] = (await replicas(["a", "b"])) as [RedisCluster, RedisCluster];
    const sseA = a.sse as NonNullable<RedisCluster["sse"]>;
    const sseB = b.sse as NonNullable<RedisCluster["sse"]>;
    await sseA.hold("s1", "alice", "");
    expect(await sseB.holderOf("s1")).toEqual({ replicaId: "a", owner: "alice", profile: "" });
    expect(await sseB.holderOf("s2")).toBeUndefined();
    const received = new Promise<ForwardedSseMessage>((resolve) => sseA.onForwarded(resolve));
    expect(await sseB.forward("a", message)).toBe(true);
    expect(await received).toEqual(message);
    await sseA.release("s1");
    expect(await sseB.holderOf("s1")).toBeUndefined();
  });

  it("tell the sender when no replica of that id listens", async () => {
    const [d] = (await replicas(["d"])) as [RedisCluster];
    expect(await (d.sse as NonNullable<RedisCluster["sse"]>).forward("gone", message)).toBe(false);
  });

  it("refresh the records of the streams held, every third of the TTL", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const client = await connectRedis({ url: redis.url });
    const subscriber = await connectRedis({ url: redis.url });
    const seal = createClusterSeal([secret]);
    const rejections = createRejections(() => {});
    const sse = createRedisSseSessions({
      client,
      subscriber: createRedisSubscriber(subscriber, seal, rejections, () => {}),
      seal,
      rejections,
      prefix: "refresh:",
      replicaId: "e",
      ttlMs: 60_000,
      onWarning: () => {},
    });
    try {
      await sse.hold("held", "alice", "");
      await sse.hold("released", "alice", "");
      await sse.release("released");
      await sse.hold("lost", "bob", "team");
      await client.pexpire("refresh:sse-holder:held", 10_000);
      // A Redis that restarted empty, say.
      await client.del("refresh:sse-holder:lost");
      vi.advanceTimersByTime(20_000);
      // Commands on one connection run in order: the refresh has run before this answer.
      expect(await client.pttl("refresh:sse-holder:held")).toBeGreaterThan(50_000);
      expect(await sse.holderOf("lost")).toEqual({ replicaId: "e", owner: "bob", profile: "team" });
      expect(await client.exists("refresh:sse-holder:released")).toBe(0);
    } finally {
      sse.stop();
      vi.useRealTimers();
      client.disconnect();
      subscriber.disconnect();
    }
  });
});
