import { randomBytes } from "node:crypto";
import type { Frame } from "@patchbay/jsonrpc-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
const clusters: RedisCluster[] = [];
let prefixCounter = 0;
let prefix = "";

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
});

/** A replica on the test's own key prefix, so that tests never see each other's keys. */
async function replica(
  replicaId: string,
  extra: Partial<Parameters<typeof createRedisCluster>[0]> = {},
): Promise<RedisCluster> {
  const cluster = await createRedisCluster({
    url: redis.url,
    secret,
    replicaId,
    keyPrefix: prefix,
    sessionTtlMs: 60_000,
    ...extra,
  });
  clusters.push(cluster);
  return cluster;
}

describe("createRedisCluster", () => {
  afterEach(() => {
    prefixCounter += 1;
    prefix = `t${prefixCounter}:`;
  });

  it("shares session records between replicas, and a removal reaches every replica", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const record = {
      sessionId: "s1",
      owner: "alice",
      profile: "",
      protocolVersion: "2025-06-18",
      initializeParams: { protocolVersion: "2025-06-18", capabilities: { sampling: {} } },
      lastActivityAt: 1000,
    };
    await a.sessions.save(record, 60_000);
    expect(await b.sessions.load("s1")).toEqual(record);
    await b.sessions.touch("s1", 2000, 60_000);
    expect((await a.sessions.load("s1"))?.lastActivityAt).toBe(2000);
    const removed = new Promise<string>((resolve) => a.sessions.onRemoved(resolve));
    await b.sessions.remove("s1");
    expect(await removed).toBe("s1");
    expect(await a.sessions.load("s1")).toBeUndefined();
  });

  it("keeps a record's resource subscriptions one URI at a time, told to every replica, untouched by saves", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const record = {
      sessionId: "s2",
      owner: "alice",
      profile: "",
      protocolVersion: "2025-11-25",
      initializeParams: {},
      lastActivityAt: 1000,
    };
    await a.sessions.save(record, 60_000);
    const heard: unknown[] = [];
    let onHeard: () => void = () => {};
    b.sessions.onSubscription((change) => {
      heard.push(change);
      onHeard();
    });
    const third = new Promise<void>((resolve) => {
      onHeard = () => {
        if (heard.length === 3) resolve();
      };
    });
    // Two replicas add a URI each at once: neither is lost.
    await Promise.all([
      a.sessions.setSubscription("s2", "test://one", true),
      b.sessions.setSubscription("s2", "test://two", true),
    ]);
    // A save of the record (a logging level, say) with an older list changes none.
    await b.sessions.save({ ...record, loggingLevel: "info", resourceSubscriptions: [] }, 60_000);
    expect([...((await a.sessions.load("s2"))?.resourceSubscriptions ?? [])].sort()).toEqual([
      "test://one",
      "test://two",
    ]);
    await a.sessions.setSubscription("s2", "test://one", false);
    await third;
    expect(await b.sessions.load("s2")).toMatchObject({
      loggingLevel: "info",
      resourceSubscriptions: ["test://two"],
    });
    expect(heard).toContainEqual({ sessionId: "s2", uri: "test://one", subscribed: false });
    // No record: nothing stored, nothing told.
    await a.sessions.setSubscription("gone", "test://one", true);
    expect(await a.sessions.load("gone")).toBeUndefined();
    await b.sessions.remove("s2");
    expect(heard).toHaveLength(3);
  });

  it("does not bring back an expired record when touched", async () => {
    const a = await replica("a");
    await a.sessions.touch("never-saved", 1, 60_000);
    expect(await a.sessions.load("never-saved")).toBeUndefined();
  });

  it("replays a stream on another replica after Last-Event-ID, each event once and in order", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const message = (n: number): Frame => ({ jsonrpc: "2.0", method: `n/${n}` });
    const primed = await a.eventStore.storeEvent("stream-1", undefined, "s1");
    const first = await a.eventStore.storeEvent("stream-1", message(1), "s1");
    await a.eventStore.storeEvent("stream-2", message(99), "s1");
    await a.eventStore.storeEvent("stream-1", message(2), "s1");
    await a.eventStore.storeEvent("stream-1", message(3), "s1");
    const seen: [string, Frame][] = [];
    const stream = await b.eventStore.replayEventsAfter(first, (id, frame) => {
      seen.push([id, frame]);
    });
    expect(stream).toBe("stream-1");
    expect(seen.map(([, frame]) => frame)).toEqual([message(2), message(3)]);
    const all: Frame[] = [];
    await b.eventStore.replayEventsAfter(primed, (_id, frame) => {
      all.push(frame);
    });
    expect(all).toEqual([message(1), message(2), message(3)]);
    // Resuming from the last replayed id gives nothing twice.
    const again: Frame[] = [];
    await b.eventStore.replayEventsAfter(seen[1]?.[0] as string, (_id, frame) => {
      again.push(frame);
    });
    expect(again).toEqual([]);
  });

  it("treats unknown, malformed and trimmed event ids as unknown", async () => {
    const a = await replica("a", { maxEventsPerStream: 2 });
    const first = await a.eventStore.storeEvent("s", { jsonrpc: "2.0", method: "x" });
    for (let index = 0; index < 200; index++) {
      await a.eventStore.storeEvent("s", { jsonrpc: "2.0", method: "y" });
    }
    const never = () => {
      throw new Error("nothing may be replayed");
    };
    expect(await a.eventStore.replayEventsAfter(first, never)).toBeUndefined();
    expect(await a.eventStore.replayEventsAfter("no-separator", never)).toBeUndefined();
    expect(await a.eventStore.replayEventsAfter("s@not-an-id", never)).toBeUndefined();
    expect(await a.eventStore.replayEventsAfter("other@1-0", never)).toBeUndefined();
  });

  it("forgets a stream's events", async () => {
    const a = await replica("a");
    const id = await a.eventStore.storeEvent("gone", { jsonrpc: "2.0", method: "x" });
    a.eventStore.forgetStream?.("gone");
    // The DEL is queued before this XRANGE on the same connection.
    expect(await a.eventStore.replayEventsAfter(id, () => {})).toBeUndefined();
  });

  it("holds a rate limit across replicas together", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const c = await replica("c");
    const limiters = [a, b, c].map((cluster) =>
      cluster.createRateLimiter({ requestsPerMinute: 6 }),
    );
    const startedAt = Date.now();
    const decisions = [];
    for (let index = 0; index < 9; index++) {
      decisions.push(await (limiters[index % 3]?.take("token alice") ?? Promise.reject()));
    }
    const allowed = decisions.filter((decision) => decision.allowed).length;
    // A bucket of 6 refills at 6 a minute: one more per 10 s of test time at most.
    expect(allowed).toBeGreaterThanOrEqual(6);
    expect(allowed).toBeLessThanOrEqual(6 + Math.floor((Date.now() - startedAt) / 10_000));
    const refused = decisions.find((decision) => !decision.allowed);
    expect(refused).toMatchObject({ allowed: false });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    // Another key has its own bucket.
    expect(await limiters[0]?.take("token bob")).toEqual({ allowed: true });
  });

  it("broadcasts to every replica, and publishes each saved record", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const frame: Frame = { jsonrpc: "2.0", method: "notifications/cancelled", params: {} };
    const atA = new Promise((resolve) => a.bus.onBroadcast(resolve));
    const atB = new Promise((resolve) => b.bus.onBroadcast(resolve));
    await a.bus.broadcast({ sessionId: "s", frame });
    expect(await Promise.all([atA, atB])).toEqual([
      { sessionId: "s", frame },
      { sessionId: "s", frame },
    ]);
    const saved = new Promise((resolve) => b.sessions.onSaved(resolve));
    const record = {
      sessionId: "s2",
      owner: "o",
      profile: "p",
      protocolVersion: "2025-06-18",
      initializeParams: {},
      loggingLevel: "error",
      lastActivityAt: 5,
    };
    await a.sessions.save(record, 60_000);
    expect(await saved).toEqual(record);
  });

  it("carries a delivery to the replica it names, and to no other", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const toA: unknown[] = [];
    a.bus.onDelivery((delivery) => toA.push(delivery));
    const toB = new Promise((resolve) => b.bus.onDelivery(resolve));
    const frame: Frame = { jsonrpc: "2.0", id: "~b~1", result: {} };
    await a.bus.send("b", { sessionId: "s", frame });
    expect(await toB).toEqual({ sessionId: "s", frame });
    expect(toA).toEqual([]);
  });

  it("counts live replicas by heartbeat, and a replica that leaves drops out", async () => {
    const a = await replica("a");
    await replica("b");
    const c = await replica("c");
    expect(await a.heartbeat()).toBe(3);
    expect(a.status()).toEqual({
      replicaId: "a",
      redis: "connected",
      liveReplicas: 3,
      degraded: false,
      rateLimits: "shared",
      rejectedMessages: 0,
    });
    await c.close();
    expect(await a.heartbeat()).toBe(2);
  });

  it("fails to start naming the address, never the password, when Redis is not there", async () => {
    await expect(
      createRedisCluster({
        url: "redis://user:s3cret@127.0.0.1:1",
        secret,
        sessionTtlMs: 1000,
        connectTimeoutMs: 2000,
      }),
    ).rejects.toThrow(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1(?!.*s3cret)/);
  });
});

describe("a Redis outage", () => {
  it("is reported, refused while it lasts, and recovered from when Redis is back", async () => {
    const own = await startRedisServer();
    const warnings: string[] = [];
    let onWarning = (message: string): void => {
      warnings.push(message);
    };
    let onBack: () => void = () => {};
    const cluster = await createRedisCluster({
      url: own.url,
      secret,
      replicaId: "r",
      sessionTtlMs: 60_000,
      onWarning: (message) => onWarning(message),
      onInfo: () => onBack(),
    });
    try {
      const lost = new Promise<void>((resolve) => {
        onWarning = (message) => {
          warnings.push(message);
          if (message.startsWith("lost Redis")) resolve();
        };
      });
      const back = new Promise<void>((resolve) => {
        onBack = resolve;
      });
      await own.restart();
      await lost;
      expect(warnings[0]).toMatch(/^lost Redis at unix:\/\/.*new sessions get 503/);
      await back;
      expect(cluster.available).toBe(true);
      await cluster.sessions.save(
        {
          sessionId: "after",
          owner: "o",
          profile: "",
          protocolVersion: "2025-06-18",
          initializeParams: {},
          lastActivityAt: 1,
        },
        60_000,
      );
      expect((await cluster.sessions.load("after"))?.owner).toBe("o");
    } finally {
      await cluster.close();
      await own.stop();
    }
  });

  it("falls back to per-replica rate limits and stores no events while Redis is down", async () => {
    const own = await startRedisServer();
    const warnings: string[] = [];
    const lostSignal: { resolve?: () => void } = {};
    const lost = new Promise<void>((resolve) => {
      lostSignal.resolve = resolve;
    });
    const cluster = await createRedisCluster({
      url: own.url,
      secret,
      replicaId: "r",
      sessionTtlMs: 60_000,
      onWarning: (message) => {
        warnings.push(message);
        if (message.startsWith("lost Redis")) lostSignal.resolve?.();
      },
    });
    try {
      const limiter = cluster.createRateLimiter({ requestsPerMinute: 1 });
      await own.stop();
      await lost;
      expect(cluster.available).toBe(false);
      expect(await limiter.take("k")).toEqual({ allowed: true });
      expect((await limiter.take("k")).allowed).toBe(false);
      const id = await cluster.eventStore.storeEvent("s", { jsonrpc: "2.0", method: "x" });
      expect(id).toMatch(/^s@unstored-/);
      await expect(cluster.sessions.load("x")).rejects.toThrow();
      expect(
        warnings.some((line) => line.includes("rate limits are this replica's share (1/1)")),
      ).toBe(true);
    } finally {
      await cluster.close();
    }
  });
});
