import { randomBytes } from "node:crypto";
import { CredentialStoreError } from "@patchbay/router/config-file";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClusterSeal } from "./cluster-seal.js";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { connectRedis } from "./redis-connection.js";
import { connectRedisCredentialStore, createRedisCredentialStore } from "./redis-credentials.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

const secret = randomBytes(32).toString("base64");
const key = randomBytes(32);
const prefix = "credentials-test:";

let redis: RedisServerProcess;
let raw: Redis;
const clusters: RedisCluster[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  raw = await connectRedis({ url: redis.url });
});
afterAll(async () => {
  raw?.disconnect();
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
  await redis?.stop();
});

async function replica(replicaId: string): Promise<RedisCluster> {
  const cluster = await createRedisCluster({
    url: redis.url,
    replicaId,
    keyPrefix: prefix,
    sessionTtlMs: 60_000,
    secret,
  });
  clusters.push(cluster);
  return cluster;
}

/** Every key and value in Redis, as one text. */
async function everything(): Promise<string> {
  const keys = await raw.keys("*");
  const parts: string[] = [...keys];
  for (const name of keys) {
    const type = await raw.type(name);
    if (type === "hash") parts.push(JSON.stringify(await raw.hgetall(name)));
    if (type === "string") parts.push((await raw.get(name)) ?? "");
    if (type === "set") parts.push(...(await raw.smembers(name)));
  }
  return parts.join("\n");
}

it("shares sealed values: a write by the CLI or a replica is read by every replica", async () => {
  const a = await (await replica("a")).openCredentialStore(key);
  const b = await (await replica("b")).openCredentialStore(key);
  const cli = await connectRedisCredentialStore({ url: redis.url, secret, keyPrefix: prefix, key });
  try {
    const heard = new Promise<number>((resolve) => b.onChanged(resolve));
    await cli.store.set({ principal: "alice", backend: "gh", slot: "token" }, "alice-secret-1");
    expect(await heard).toBe(1);
    expect(b.valuesFor("alice", "gh")).toEqual({ token: "alice-secret-1" });

    const heardByB = new Promise<number>((resolve) => b.onChanged(resolve));
    await a.replace("bob", "gh", { access_token: "bob-token-2", oauth: "{}" });
    // The writer sees its own write at once; the other replica once the notice arrives.
    expect(a.valuesFor("bob", "gh")).toEqual({ access_token: "bob-token-2", oauth: "{}" });
    await heardByB;
    expect(b.valuesFor("bob", "gh")).toEqual({ access_token: "bob-token-2", oauth: "{}" });
    expect(b.list()).toEqual([
      { principal: "alice", backend: "gh", slot: "token" },
      { principal: "bob", backend: "gh", slot: "access_token" },
      { principal: "bob", backend: "gh", slot: "oauth" },
    ]);

    const text = await everything();
    for (const value of ["alice-secret-1", "bob-token-2"]) expect(text).not.toContain(value);

    // A value moved to another place in Redis no longer opens: the store is refused.
    const fields = await raw.hgetall(`${prefix}credentials`);
    const alices = fields[JSON.stringify(["alice", "gh", "token"])] as string;
    await raw.hset(`${prefix}credentials`, JSON.stringify(["carol", "gh", "token"]), alices);
    await expect(a.load()).rejects.toThrow(CredentialStoreError);
    await raw.hdel(`${prefix}credentials`, JSON.stringify(["carol", "gh", "token"]));

    const gone = new Promise<number>((resolve) => a.onChanged(resolve));
    expect(await cli.store.delete({ principal: "bob", backend: "gh" })).toBe(2);
    expect(await gone).toBe(1);
    expect(a.valuesFor("bob", "gh")).toBeUndefined();
  } finally {
    a.close();
    b.close();
    await cli.close();
  }
}, 20_000);

it("refuses another key", async () => {
  const other = randomBytes(32);
  await expect(
    createRedisCredentialStore({
      client: raw,
      seal: createClusterSeal([secret]),
      prefix,
      key: other,
    }),
  ).rejects.toThrow(/sealed with another key/);
}, 10_000);

it("runs one holder of a place's lock at a time, and only the holder releases it", async () => {
  const seal = createClusterSeal([secret]);
  // Neither hears notices (no subscriber): only the read inside the lock shows the other's write.
  const first = await createRedisCredentialStore({ client: raw, seal, prefix, key });
  const second = await createRedisCredentialStore({ client: raw, seal, prefix, key });
  const place = { principal: "dave", backend: "gh" };
  const lockKey = `${prefix}credentials-lock:${JSON.stringify(["dave", "gh"])}`;
  const order: string[] = [];
  let releaseFirst: () => void = () => {};
  const firstHeld = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  let firstIn: () => void = () => {};
  const firstEntered = new Promise<void>((resolve) => {
    firstIn = resolve;
  });
  const one = first.withLock(place, async () => {
    order.push("first in");
    firstIn();
    await firstHeld;
    await first.replace("dave", "gh", { refresh_token: "rotated-by-first" });
    order.push("first out");
  });
  await firstEntered;
  const two = second.withLock(place, async () => {
    order.push(`second in, sees ${second.valuesFor("dave", "gh")?.refresh_token}`);
  });
  expect(await raw.get(lockKey)).not.toBeNull();
  releaseFirst();
  await Promise.all([one, two]);
  expect(order).toEqual(["first in", "first out", "second in, sees rotated-by-first"]);
  expect(await raw.exists(lockKey)).toBe(0);

  // A holder whose lock expired and was taken by another does not release the other's lock.
  await second.withLock(place, async () => {
    await raw.set(lockKey, "someone-else");
  });
  expect(await raw.get(lockKey)).toBe("someone-else");
  await raw.del(lockKey);
  await first.delete(place);
  first.close();
  second.close();
}, 20_000);
