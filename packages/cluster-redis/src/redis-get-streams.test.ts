import { randomBytes } from "node:crypto";
import type { Frame } from "@patchbay/jsonrpc-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClusterSeal } from "./cluster-seal.js";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { connectRedis } from "./redis-connection.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
const clusters: RedisCluster[] = [];
let prefixCounter = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.close()));
  await redis.stop();
});

/** Replicas on a key prefix of their own, keeping at most `maxEventsPerStream` messages. */
async function replicas(ids: string[], maxEventsPerStream = 100): Promise<RedisCluster[]> {
  prefixCounter += 1;
  const started = await Promise.all(
    ids.map((replicaId) =>
      createRedisCluster({
        url: redis.url,
        secret,
        replicaId,
        keyPrefix: `get${prefixCounter}:`,
        sessionTtlMs: 60_000,
        maxEventsPerStream,
      }),
    ),
  );
  clusters.push(...started);
  return started;
}

const note = (n: number): Frame => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { n },
});

describe("the GET streams of sessions", () => {
  it("keep what is sent while no replica holds the stream, and hand it, in order, to the first that does", async () => {
    const [a, b] = (await replicas(["a", "b"])) as [RedisCluster, RedisCluster];
    await a.getStreams.send("s1", note(1));
    await a.getStreams.send("s1", note(2));
    expect(await b.getStreams.hold("s1")).toEqual([note(1), note(2)]);
    expect(await b.getStreams.hold("s1")).toEqual([]);
    // Another session's kept messages are its own.
    await a.getStreams.send("s2", note(3));
    expect(await b.getStreams.hold("s1")).toEqual([]);
  });

  it("keep at most maxEventsPerStream messages, dropping the oldest", async () => {
    const [a] = (await replicas(["a"], 3)) as [RedisCluster];
    for (const n of [1, 2, 3, 4, 5]) await a.getStreams.send("s1", note(n));
    expect(await a.getStreams.hold("s1")).toEqual([note(3), note(4), note(5)]);
  });

  it("send to the replica that holds the stream while it listens, and keep when none listens", async () => {
    const [a, b, c] = (await replicas(["a", "b", "c"])) as [
      RedisCluster,
      RedisCluster,
      RedisCluster,
    ];
    // b's bus channel, subscribed for certain (a gateway subscribes from its start).
    const listening = await connectRedis({ url: redis.url });
    const heard = new Promise<string>((resolve) =>
      listening.on("message", (_, text) => resolve(text)),
    );
    await listening.subscribe(`get${prefixCounter}:replica:b`);
    await b.getStreams.hold("s1");
    await a.getStreams.send("s1", note(1));
    // Sealed for any replica's channel: the script picks the holder's.
    const opened = createClusterSeal([secret]).open(`get${prefixCounter}:replica:*`, await heard);
    expect(JSON.parse(opened as string)).toEqual({
      sessionId: "s1",
      frame: note(1),
      toClient: true,
    });
    expect(await a.getStreams.hold("s1")).toEqual([]);
    listening.disconnect();
    // c holds it now, then goes: it no longer listens on its channel.
    await c.getStreams.hold("s1");
    await c.close();
    await a.getStreams.send("s1", note(2));
    expect(await b.getStreams.hold("s1")).toEqual([note(2)]);
  });

  it("are forgotten with their session: a DELETE leaves no key of the session behind", async () => {
    const [a, b] = (await replicas(["a", "b"])) as [RedisCluster, RedisCluster];
    const prefix = `get${prefixCounter}:`;
    const inspector = await connectRedis({ url: redis.url });
    await a.sessions.save(
      {
        sessionId: "s1",
        owner: "alice",
        profile: "",
        protocolVersion: "2025-11-25",
        initializeParams: {},
        lastActivityAt: 1,
      },
      60_000,
    );
    await a.getStreams.hold("s1");
    await b.getStreams.send("s1", note(1));
    a.calls.started("s1", 7, "stream-1");
    await a.heartbeat(); // a command after the fire-and-forget one: it has run
    expect((await inspector.keys(`${prefix}*s1*`)).length).toBeGreaterThanOrEqual(3);
    await b.sessions.remove("s1");
    expect(await inspector.keys(`${prefix}*s1*`)).toEqual([]);
    inspector.disconnect();
  });

  it("never send to the sending replica itself: what it holds but cannot send is kept", async () => {
    const [a] = (await replicas(["a"])) as [RedisCluster];
    await a.getStreams.hold("s1");
    await a.getStreams.send("s1", note(1));
    expect(await a.getStreams.hold("s1")).toEqual([note(1)]);
  });
});
