import { randomBytes } from "node:crypto";
import type { ClusterDelivery, RelayedModernRequest } from "@patchbay/http-gateway";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { connectRedis } from "./redis-connection.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** What an attacker with Redis access (and without the cluster secret) does, straight to Redis. */
const secret = randomBytes(32).toString("base64");
const prefix = "forge:";

let redis: RedisServerProcess;
let attacker: Redis;
const clusters: RedisCluster[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
  attacker = await connectRedis({ url: redis.url });
});
afterAll(async () => {
  attacker.disconnect();
  await redis.stop();
});
afterEach(async () => {
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
});

async function replica(
  replicaId: string,
  own: { secret?: string; warnings?: string[] } = {},
): Promise<RedisCluster> {
  const cluster = await createRedisCluster({
    url: redis.url,
    secret: own.secret ?? secret,
    replicaId,
    keyPrefix: prefix,
    sessionTtlMs: 60_000,
    heartbeatIntervalMs: 60_000,
    onWarning: (message) => own.warnings?.push(message),
  });
  clusters.push(cluster);
  return cluster;
}

const call = (caller: string, id: number): RelayedModernRequest => ({
  profile: "",
  caller,
  message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "ops__delete_all" } },
});
const quiet = () => ({ signal: new AbortController().signal, notify: () => {} });
const delivery = (text: string): ClusterDelivery => ({
  sessionId: "s1",
  frame: { jsonrpc: "2.0", method: "notifications/message", params: { text } },
});
const textOf = (got: ClusterDelivery) => JSON.stringify((got.frame as { params?: unknown }).params);
const record = (sessionId: string, owner: string) => ({
  sessionId,
  owner,
  profile: "",
  protocolVersion: "2025-06-18",
  initializeParams: {},
  lastActivityAt: 1,
});

describe("an attacker with Redis access but not the cluster secret", () => {
  it("cannot run a tool through the modern relay: forged and replayed calls are dropped, counted and logged once", async () => {
    const warnings: string[] = [];
    const a = await replica("a", { warnings });
    const b = await replica("b");
    const ran: string[] = [];
    const served: Array<() => void> = [];
    a.modern.serve("", async (relayed) => {
      ran.push(`${relayed.caller} ${relayed.message.id}`);
      served.shift()?.();
      return { jsonrpc: "2.0", id: relayed.message.id, result: {} };
    });
    const channel = `${prefix}modern:a`;
    // The attacker listens on the holder's channel and keeps what a genuine replica sent.
    const listener = await connectRedis({ url: redis.url });
    const captured = new Promise<string>((resolve) => {
      listener.on("message", (_channel: string, text: string) => resolve(text));
    });
    await listener.subscribe(channel);
    await b.modern.forward("a", call("alice", 1), quiet());
    const genuine = await captured;
    await listener.unsubscribe(channel);
    listener.disconnect();

    const forged = { t: "call", id: "x", from: "b", request: call("admin", 2) };
    expect(await attacker.publish(channel, JSON.stringify(forged))).toBe(1);
    expect(await attacker.publish(channel, genuine)).toBe(1);
    const altered = genuine.replace('"caller":"alice"', '"caller":"admin"');
    expect(altered).not.toBe(genuine);
    expect(await attacker.publish(channel, altered)).toBe(1);
    // A genuine call published after them: by the time it runs, the three were read (one channel).
    const third = new Promise<void>((resolve) => served.push(resolve));
    await b.modern.forward("a", call("alice", 3), quiet());
    await third;
    expect(ran).toEqual(["alice 1", "alice 3"]);
    expect(a.rejectedMessages).toBe(3);
    expect(a.status()).toMatchObject({ rejectedMessages: 3 });
    const dropped = warnings.filter((line) => line.startsWith("dropped"));
    expect(dropped).toEqual([
      `dropped 1 Redis message(s) or record(s) that failed verification (last at ${channel}): written by something without the cluster secret, or a replay`,
    ]);
  });

  it("cannot deliver a message on the bus, a broadcast or a forwarded legacy SSE POST", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const heard: string[] = [];
    let next: () => void = () => {};
    const arrived = () =>
      new Promise<void>((resolve) => {
        next = resolve;
      });
    const hear = (what: string) => {
      heard.push(what);
      next();
    };
    a.bus.onDelivery((got) => hear(`bus ${textOf(got)}`));
    a.bus.onBroadcast((got) => hear(`broadcast ${textOf(got)}`));
    a.sse?.onForwarded((got) => hear(`sse ${got.owner}`));

    await attacker.publish(`${prefix}replica:a`, JSON.stringify(delivery("forged")));
    let done = arrived();
    await b.bus.send("a", delivery("genuine"));
    await done;
    await attacker.publish(`${prefix}broadcast`, JSON.stringify(delivery("forged")));
    done = arrived();
    await b.bus.broadcast(delivery("genuine"));
    await done;
    const forwarded = { sessionId: "s1", owner: "admin", profile: "", frame: delivery("x").frame };
    await attacker.publish(`${prefix}sse-replica:a`, JSON.stringify(forwarded));
    done = arrived();
    await b.sse?.forward("a", { ...forwarded, owner: "alice" });
    await done;
    expect(heard).toEqual(['bus {"text":"genuine"}', 'broadcast {"text":"genuine"}', "sse alice"]);
    expect(a.rejectedMessages).toBe(3);
  });

  it("cannot make a replica adopt a session it wrote or moved, nor name an SSE holder or a dashboard login", async () => {
    const a = await replica("a");
    const b = await replica("b");
    await a.sessions.save(record("s1", "alice"), 60_000);
    expect((await b.sessions.load("s1"))?.owner).toBe("alice");
    // A record written straight to Redis, and a genuine record copied under another session's id.
    await attacker.hset(`${prefix}session:s2`, { record: JSON.stringify(record("s2", "admin")) });
    const genuine = (await attacker.hget(`${prefix}session:s1`, "record")) as string;
    await attacker.hset(`${prefix}session:s3`, { record: genuine });
    expect(await b.sessions.load("s2")).toBeUndefined();
    expect(await b.sessions.load("s3")).toBeUndefined();
    expect((await b.sessionSummaries()).sessions.map((session) => session.owner)).toEqual([
      "alice",
    ]);
    const holder = { replicaId: "b", owner: "admin", profile: "" };
    await attacker.set(`${prefix}sse-holder:s4`, JSON.stringify(holder));
    expect(await a.sse?.holderOf("s4")).toBeUndefined();
    const loginKey = "f".repeat(64);
    const login = JSON.stringify({ name: "admin", expiresAt: Date.now() + 60_000 });
    await attacker.hset(`${prefix}dashboard-logins`, loginKey, login);
    expect(await a.dashboardLogins.get(loginKey, Date.now())).toBeUndefined();
    expect(b.rejectedMessages).toBe(2);
    expect(a.rejectedMessages).toBe(2);
  });
});

describe("a replica with another secret", () => {
  it("cannot take over sessions or reach the others, nor they it", async () => {
    const a = await replica("a");
    const intruder = await replica("intruder", { secret: randomBytes(32).toString("base64") });
    await a.sessions.save(record("s1", "alice"), 60_000);
    expect(await intruder.sessions.load("s1")).toBeUndefined();
    await intruder.sessions.save(record("s2", "admin"), 60_000);
    expect(await a.sessions.load("s2")).toBeUndefined();
    const ran: string[] = [];
    a.modern.serve("", async (relayed) => {
      ran.push(relayed.caller);
      return { jsonrpc: "2.0", id: relayed.message.id, result: {} };
    });
    const aborter = new AbortController();
    const refused = intruder.modern
      .forward("a", call("admin", 1), { signal: aborter.signal, notify: () => {} })
      .catch((error: Error) => error.message);
    const b = await replica("b");
    await b.modern.forward("a", call("alice", 2), quiet());
    expect(ran).toEqual(["alice"]);
    // The intruder's session record, its relayed call and its announcement that it joined.
    expect(a.rejectedMessages).toBe(3);
    aborter.abort();
    expect(await refused).toBe("the client went away");
  });
});
