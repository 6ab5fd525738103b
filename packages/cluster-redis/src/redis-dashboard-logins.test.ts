import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { redisOptionsOf } from "./redis-connection.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
let inspector: Redis;
const clusters: RedisCluster[] = [];
let testCounter = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  inspector = new Redis({ ...redisOptionsOf(redis.url), replyMapping: "legacy" });
  await inspector.connect();
});
afterAll(async () => {
  inspector.disconnect();
  await redis.stop();
});
afterEach(async () => {
  testCounter += 1;
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
});

const prefix = () => `logins${testCounter}:`;
async function replica(replicaId: string): Promise<RedisCluster> {
  const cluster = await createRedisCluster({
    url: redis.url,
    secret,
    replicaId,
    keyPrefix: prefix(),
    sessionTtlMs: 60_000,
  });
  clusters.push(cluster);
  return cluster;
}

const key = (n: number) => n.toString(16).padStart(64, "0");

describe("dashboard logins in Redis", () => {
  it("finds a login added by one replica on another, until it ends or is removed", async () => {
    const a = (await replica("a")).dashboardLogins;
    const b = (await replica("b")).dashboardLogins;
    await a.add(key(1), { name: "admin", expiresAt: 61_000 }, { maxLogins: 10, now: 1_000 });
    expect(await b.get(key(1), 60_999)).toEqual({ name: "admin", expiresAt: 61_000 });
    expect(await b.get(key(1), 61_000)).toBeUndefined();
    expect(await b.get(key(2), 1_000)).toBeUndefined();
    await a.add(key(3), { name: "admin", expiresAt: 61_000 }, { maxLogins: 10, now: 1_000 });
    await b.remove(key(3));
    expect(await a.get(key(3), 1_000)).toBeUndefined();
    // Both keys expire with the longest-lived login (here 60 s after `now`). The clock passed in
    // is a manual one, but Redis expires keys on its own: times stay far from its real clock's reach.
    const ttl = await inspector.pttl(`${prefix()}dashboard-logins`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("keeps at most maxLogins across the replicas, dropping the oldest, and drops ended ones", async () => {
    const a = (await replica("a")).dashboardLogins;
    const b = (await replica("b")).dashboardLogins;
    const limits = { maxLogins: 2, now: 1_000 };
    await a.add(key(1), { name: "admin", expiresAt: 65_001 }, limits);
    await b.add(key(2), { name: "admin", expiresAt: 65_002 }, limits);
    await a.add(key(3), { name: "admin", expiresAt: 65_003 }, limits);
    expect(await b.get(key(1), 1_000)).toBeUndefined();
    expect(await b.get(key(2), 1_000)).toBeDefined();
    expect(await b.get(key(3), 1_000)).toBeDefined();
    // At 65 002 the first two ended: adding drops them from both keys.
    await b.add(key(4), { name: "admin", expiresAt: 129_000 }, { maxLogins: 2, now: 65_002 });
    // Sorted: sealed records are too long for Redis's ordered small-hash encoding.
    expect((await inspector.hkeys(`${prefix()}dashboard-logins`)).sort()).toEqual([key(3), key(4)]);
    expect(await inspector.zrange(`${prefix()}dashboard-login-ends`, "0", "-1")).toEqual([
      key(3),
      key(4),
    ]);
  });

  it("ignores a record it did not write", async () => {
    const a = (await replica("a")).dashboardLogins;
    await inspector.hset(`${prefix()}dashboard-logins`, key(5), "{", key(6), "x".repeat(2000));
    await inspector.hset(`${prefix()}dashboard-logins`, key(7), JSON.stringify({ name: 1 }));
    for (const n of [5, 6, 7]) expect(await a.get(key(n), 0)).toBeUndefined();
  });

  it("rejects while Redis is down, and works again once it is back", async () => {
    const logins = (await replica("a")).dashboardLogins;
    await redis.shutdown();
    await expect(logins.get(key(1), 0)).rejects.toThrow();
    await expect(
      logins.add(key(1), { name: "admin", expiresAt: 60_001 }, { maxLogins: 1, now: 1 }),
    ).rejects.toThrow();
    await expect(logins.remove(key(1))).rejects.toThrow();
    await redis.startAgain();
    await new Promise<void>((resolve) => {
      const stop = (clusters[0] as RedisCluster).onAvailable(() => {
        stop();
        resolve();
      });
    });
    await logins.add(key(1), { name: "admin", expiresAt: 60_001 }, { maxLogins: 1, now: 1 });
    expect(await logins.get(key(1), 1)).toEqual({ name: "admin", expiresAt: 60_001 });
  });
});
