import { randomBytes } from "node:crypto";
import type { PinSnapshot } from "@patchbay/router";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { connectRedis } from "./redis-connection.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
const clusters: RedisCluster[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
  await redis.stop();
});

async function replica(replicaId: string): Promise<RedisCluster> {
  const cluster = await createRedisCluster({
    url: redis.url,
    replicaId,
    keyPrefix: "pins-test:",
    sessionTtlMs: 60_000,
    secret,
  });
  clusters.push(cluster);
  return cluster;
}

const snapshot: PinSnapshot = {
  version: 1,
  backends: {
    a: {
      "tool:x": { kind: "tool", name: "a__x", pinned: { hash: "h", definition: { name: "x" } } },
    },
  },
};

it("shares the pins between replicas and tells the others of each save, not the saver", async () => {
  const a = await replica("a");
  const b = await replica("b");
  expect(await b.pins.load()).toBeUndefined();
  let aHeard = 0;
  a.pins.onChanged(() => {
    aHeard += 1;
  });
  const bHeard = new Promise<void>((resolve) => b.pins.onChanged(resolve));
  await a.pins.save(snapshot);
  await bHeard;
  expect(await b.pins.load()).toEqual(snapshot);
  // b's own save reaches a (after a's, in order): a heard b, never itself.
  const aHeardB = new Promise<void>((resolve) => a.pins.onChanged(resolve));
  await b.pins.save(withEntry(snapshot, "b", "tool:y"));
  await aHeardB;
  expect(aHeard).toBe(1);
  expect(await a.pins.load()).toEqual(withEntry(snapshot, "b", "tool:y"));
});

it("keeps entries two replicas saved at once from snapshots that each lack the other's", async () => {
  const a = await replica("c");
  const b = await replica("d");
  await a.pins.load();
  await b.pins.load();
  const base = (await a.pins.load()) as PinSnapshot;
  await Promise.all([
    a.pins.save(withEntry(base, "c", "tool:new-on-c")),
    b.pins.save(withEntry(base, "d", "tool:new-on-d")),
  ]);
  const both = (await a.pins.load()) as PinSnapshot;
  expect(Object.keys(both.backends).sort()).toEqual(["a", "b", "c", "d"]);
});

it("reads no entry written straight to Redis without the secret: Redis access approves nothing", async () => {
  const honest = await replica("e");
  await honest.pins.save(withEntry({ version: 1, backends: {} }, "e", "tool:kept"));
  const attacker = await connectRedis({ url: redis.url });
  const forged = withEntry({ version: 1, backends: {} }, "evil", "tool:approved");
  const entry = forged.backends.evil?.["tool:approved"];
  await attacker.hset(
    "pins-test:pins",
    JSON.stringify(["evil", "tool:approved"]),
    JSON.stringify(entry),
  );
  attacker.disconnect();
  const loaded = (await honest.pins.load()) as PinSnapshot;
  expect(Object.keys(loaded.backends)).toContain("e");
  expect(Object.keys(loaded.backends)).not.toContain("evil");
  expect(honest.rejectedMessages).toBeGreaterThanOrEqual(1);
});

function withEntry(base: PinSnapshot, backend: string, key: string): PinSnapshot {
  const name = `${backend}__${key.slice("tool:".length)}`;
  return {
    version: 1,
    backends: {
      ...base.backends,
      [backend]: { [key]: { kind: "tool", name, pinned: { hash: key, definition: { name } } } },
    },
  };
}
