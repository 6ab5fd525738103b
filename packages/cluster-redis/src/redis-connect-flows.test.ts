import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import type { RedisConnectFlows } from "./redis-connect-flows.js";
import { connectRedis } from "./redis-connection.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

const secret = randomBytes(32).toString("base64");
const key = randomBytes(32);
const prefix = "connect-test:";

let redis: RedisServerProcess;
let raw: Redis;
const clusters: RedisCluster[] = [];
let a: RedisConnectFlows;
let b: RedisConnectFlows;

beforeAll(async () => {
  redis = await startRedisServer();
  raw = await connectRedis({ url: redis.url });
  for (const replicaId of ["a", "b"]) {
    clusters.push(
      await createRedisCluster({
        url: redis.url,
        replicaId,
        keyPrefix: prefix,
        sessionTtlMs: 60_000,
        secret,
      }),
    );
  }
  [a, b] = (await Promise.all(clusters.map((cluster) => cluster.openConnectFlows(key)))) as [
    RedisConnectFlows,
    RedisConnectFlows,
  ];
}, 20_000);
afterAll(async () => {
  a?.close();
  b?.close();
  raw?.disconnect();
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
  await redis?.stop();
});

/** Every key and value under the prefix, as one text. */
async function everything(): Promise<string> {
  const keys = await raw.keys(`${prefix}connect*`);
  const parts: string[] = [...keys];
  for (const name of keys) {
    const type = await raw.type(name);
    if (type === "string") parts.push((await raw.get(name)) ?? "");
    if (type === "set") parts.push(...(await raw.smembers(name)));
  }
  return parts.join("\n");
}

it("spends a link minted on one replica once, on another, under a TTL, never in clear", async () => {
  const id = randomBytes(32).toString("base64url");
  await a.saveLink(id, { principal: "alice", backend: "gh" }, 600_000);
  const text = await everything();
  expect(text).not.toContain(id);
  expect(text).not.toContain("alice");
  const [linkKey] = await raw.keys(`${prefix}connect-link:*`);
  const ttl = await raw.pttl(linkKey as string);
  expect(ttl).toBeGreaterThan(590_000);
  expect(ttl).toBeLessThanOrEqual(600_000);

  const [first, second] = await Promise.all([b.spendLink(id), a.spendLink(id)]);
  expect([first, second].filter((link) => link !== undefined)).toEqual([
    { principal: "alice", backend: "gh" },
  ]);
  expect(await b.spendLink(id)).toBeUndefined();
  expect(await b.spendLink("never-minted")).toBeUndefined();
}, 10_000);

it("spends every link of a principal and backend once it connected, and tells every replica", async () => {
  const ids = [0, 1].map(() => randomBytes(32).toString("base64url"));
  const bobs = randomBytes(32).toString("base64url");
  for (const id of ids) await a.saveLink(id, { principal: "alice", backend: "gh" }, 60_000);
  await b.saveLink(bobs, { principal: "bob", backend: "gh" }, 60_000);
  const heardOnA = new Promise<string>((resolve) => a.onConnected(resolve));
  const heardOnB = new Promise<string>((resolve) => b.onConnected(resolve));
  await b.spendLinksOf("alice", "gh");
  await b.connected("tag-1");
  expect(await Promise.all([heardOnA, heardOnB])).toEqual(["tag-1", "tag-1"]);
  for (const id of ids) expect(await a.spendLink(id)).toBeUndefined();
  expect(await a.spendLink(bobs)).toEqual({ principal: "bob", backend: "gh" });
}, 10_000);

it("relays a callback that lands on another replica to the one holding the sign-in, once", async () => {
  const state = randomBytes(32).toString("base64url");
  const code = randomBytes(16).toString("hex");
  const finishedOnA: string[] = [];
  a.serve(async (finishing, search) => {
    finishedOnA.push(`${finishing} ${search}`);
    return { status: 200, text: "Connected to gh" };
  });
  b.serve(async () => ({ status: 500, text: "not here" }));
  await a.saveSignIn(state, "gh", 600_000);
  const stored = await everything();
  expect(stored).not.toContain(state);

  const spent = await b.spendSignIn(state);
  expect(spent?.backend).toBe("gh");
  expect(await b.spendSignIn(state)).toBeUndefined();
  expect(await a.spendSignIn(state)).toBeUndefined();

  // Everything published while the relay runs is watched: neither the code nor the state in clear.
  const watcher = await connectRedis({ url: redis.url });
  const published: string[] = [];
  await watcher.psubscribe(`${prefix}*`);
  watcher.on("pmessage", (_pattern: string, _channel: string, message: string) => {
    published.push(message);
  });
  try {
    const outcome = await spent?.finish(`?code=${code}&state=${state}`);
    expect(outcome).toEqual({ status: 200, text: "Connected to gh" });
    expect(finishedOnA).toEqual([`${state} ?code=${code}&state=${state}`]);
    expect(published.length).toBeGreaterThan(0);
    for (const message of published) {
      expect(message).not.toContain(code);
      expect(message).not.toContain(state);
    }
  } finally {
    watcher.disconnect();
  }
}, 10_000);
