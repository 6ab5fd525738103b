import { randomBytes } from "node:crypto";
import type { SharedRateLimiter } from "@patchbay/http-gateway";
import { describe, expect, it } from "vitest";
import { createOutageBuckets } from "./outage-buckets.js";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { type GaugeRegistry, registerReplicaMetrics } from "./replica-metrics.js";
import { startRedisServer } from "./testing/redis-server.js";

const secret = randomBytes(32).toString("base64");

describe("the buckets of a Redis outage", () => {
  it("give each replica its share of what was left, refilling at its share of the rate", () => {
    const clock = { now: 0 };
    const buckets = createOutageBuckets({ capacity: 30, replicas: () => 3, now: () => clock.now });
    buckets.noteShared("alice", 9);
    const taken = Array.from({ length: 5 }, () => buckets.take("alice"));
    expect(taken.map((decision) => decision.allowed)).toEqual([true, true, true, false, false]);
    // 10 a minute for this replica: one every 6 s.
    expect(taken[3]).toEqual({ allowed: false, retryAfterSeconds: 6 });
    clock.now += 6_000;
    expect(buckets.take("alice").allowed).toBe(true);
    // A key this replica never saw in Redis: a full share, never the whole limit.
    const bob = Array.from({ length: 12 }, () => buckets.take("bob").allowed);
    expect(bob.filter(Boolean)).toHaveLength(10);
    // A key whose budget was spent starts empty, but is never refused for good.
    buckets.noteShared("carol", 0);
    expect(buckets.take("carol").allowed).toBe(false);
    clock.now += 6_000;
    expect(buckets.take("carol").allowed).toBe(true);
    // Redis back, then down again: the buckets start again from what Redis said last.
    buckets.reset();
    buckets.noteShared("alice", 3);
    expect([buckets.take("alice").allowed, buckets.take("alice").allowed]).toEqual([true, false]);
  });

  it("give a lone replica at least one request a minute", () => {
    const buckets = createOutageBuckets({ capacity: 2, replicas: () => 5, now: () => 0 });
    expect([buckets.take("k").allowed, buckets.take("k").allowed]).toEqual([true, false]);
  });
});

/** A metric registry that keeps the last value of each gauge. */
function gaugeRecorder() {
  const values = new Map<string, number>();
  const collectors: Array<() => void> = [];
  const registry: GaugeRegistry = {
    gauge: ({ name }) => ({ set: (_labels, value) => values.set(name, value) }),
    addCollector: (collect) => collectors.push(collect),
  };
  const scrape = () => {
    for (const collect of collectors) collect();
    return values;
  };
  return { registry, scrape };
}

async function takeAll(limiter: SharedRateLimiter, key: string, times: number): Promise<number> {
  let allowed = 0;
  for (let index = 0; index < times; index += 1) {
    if ((await limiter.take(key)).allowed) allowed += 1;
  }
  return allowed;
}

describe("rate limits across a Redis outage", () => {
  it("hand out no more than was left while Redis is down, say so, and are shared again once it is back", async () => {
    const redis = await startRedisServer();
    const clusters: RedisCluster[] = [];
    const lost: Promise<void>[] = [];
    try {
      for (const replicaId of ["a", "b"]) {
        let onLost: () => void = () => {};
        lost.push(
          new Promise((resolve) => {
            onLost = resolve;
          }),
        );
        clusters.push(
          await createRedisCluster({
            url: redis.url,
            secret,
            replicaId,
            sessionTtlMs: 60_000,
            heartbeatIntervalMs: 60_000,
            onWarning: (message) => {
              if (message.startsWith("lost Redis")) onLost();
            },
          }),
        );
      }
      const [a, b] = clusters as [RedisCluster, RedisCluster];
      expect(await a.heartbeat()).toBe(2);
      expect(await b.heartbeat()).toBe(2);
      // The local buckets' clock stands still: no refill during the test.
      const limits = { requestsPerMinute: 30, now: () => 0 };
      const limiters = [a.createRateLimiter(limits), b.createRateLimiter(limits)];
      // 20 of 30 spent, through both replicas (a balancer without affinity).
      for (let index = 0; index < 20; index += 1) {
        expect((await limiters[index % 2]?.take("alice"))?.allowed).toBe(true);
      }
      const metrics = gaugeRecorder();
      registerReplicaMetrics(metrics.registry, a, () => ({ callsInFlight: 0, sessions: 0 }));
      expect(metrics.scrape().get("patchbay_cluster_degraded")).toBe(0);

      await redis.shutdown();
      await Promise.all(lost);
      const [byA, byB] = await Promise.all(
        limiters.map((limiter) => takeAll(limiter, "alice", 30)),
      );
      // Each replica takes half of the 10 left, never 30 each again.
      expect([byA, byB]).toEqual([5, 5]);
      expect(a.status()).toMatchObject({
        degraded: true,
        rateLimits: "local: this replica's share (1/2)",
      });
      expect(metrics.scrape().get("patchbay_cluster_degraded")).toBe(1);
      const refused = await limiters[0]?.take("alice");
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: 4 });

      const back = clusters.map(
        (cluster) =>
          new Promise<void>((resolve) => {
            const stop = cluster.onAvailable(() => {
              stop();
              resolve();
            });
          }),
      );
      await redis.startAgain();
      await Promise.all(back);
      // Redis came back empty: one shared bucket of 30 for both replicas again.
      expect(await takeAll(limiters[0] as SharedRateLimiter, "alice", 31)).toBe(30);
      expect((await limiters[1]?.take("alice"))?.allowed).toBe(false);
      expect(a.status()).toMatchObject({ degraded: false, rateLimits: "shared" });
      expect(metrics.scrape().get("patchbay_cluster_degraded")).toBe(0);
    } finally {
      await Promise.all(clusters.map((cluster) => cluster.close()));
      await redis.stop();
    }
  });
});
