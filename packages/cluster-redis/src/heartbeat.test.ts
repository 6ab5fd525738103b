import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClusterSeal } from "./cluster-seal.js";
import { type Heartbeat, startHeartbeat } from "./heartbeat.js";
import { redisOptionsOf } from "./redis-connection.js";
import { createRedisSubscriber } from "./redis-subscriber.js";
import { createRejections } from "./rejections.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

let redis: RedisServerProcess;
let admin: Redis;
const connections: Redis[] = [];
const heartbeats: Heartbeat[] = [];
let prefixCounter = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis({ ...redisOptionsOf(redis.url), replyMapping: "legacy" });
  await admin.connect();
});
afterAll(async () => {
  admin.disconnect();
  await redis.stop();
});
afterEach(async () => {
  await Promise.all(heartbeats.splice(0).map((heartbeat) => heartbeat.stop()));
  for (const connection of connections.splice(0)) connection.disconnect();
  prefixCounter += 1;
});

/** A connection that stays down once killed (a dead process does not reconnect). */
async function connection(): Promise<{ redis: Redis; id: string }> {
  const client = new Redis({
    ...redisOptionsOf(redis.url),
    replyMapping: "legacy",
    retryStrategy: () => null,
  });
  connections.push(client);
  await client.connect();
  return { redis: client, id: String(await client.client("ID")) };
}

/** A replica's heartbeat that beats only when told (the interval is an hour). */
async function replica(
  replicaId: string,
  extra: { now?: () => number; goneRetentionMs?: number; announce?: boolean } = {},
) {
  const client = await connection();
  const subscriber = await connection();
  const seal = createClusterSeal(["a cluster secret of at least thirty-two characters"]);
  const heartbeat = startHeartbeat({
    ...(extra.announce === true
      ? {
          announcements: {
            seal,
            subscriber: createRedisSubscriber(
              subscriber.redis,
              seal,
              createRejections(() => {}),
              () => {},
            ),
          },
        }
      : {}),
    client: client.redis,
    subscriber: subscriber.redis,
    prefix: `hb${prefixCounter}:`,
    replicaId,
    intervalMs: 3_600_000,
    ttlMs: 6_000,
    goneRetentionMs: extra.goneRetentionMs ?? 60_000,
    ...(extra.now === undefined ? {} : { now: extra.now }),
  });
  heartbeats.push(heartbeat);
  await heartbeat.beat();
  /** Ends both connections on Redis's side at once, as when the process is killed. */
  const kill = async () => {
    await admin.client("KILL", "ID", client.id);
    await admin.client("KILL", "ID", subscriber.id);
  };
  return { heartbeat, kill };
}

const stats = {
  sessions: 2,
  callsInFlight: 1,
  callsServed: 40,
  callsPerMinute: 7,
  errorsPerMinute: 1,
};

describe("startHeartbeat", () => {
  it("lists at most 100 replicas, and counts only the live ones", async () => {
    const a = await replica("a");
    const prefix = `hb${prefixCounter}:`;
    const at = Date.now();
    const record = JSON.stringify({ startedAt: at, beatAt: at, expiresAt: at + 60_000 });
    const others = Array.from({ length: 120 }, (_, index) => [`r${index}`, record]).flat();
    await admin.hset(`${prefix}replica-status`, ...others);
    // They do not listen on a presence channel: gone, the lot of them.
    await a.heartbeat.beat();
    expect(a.heartbeat.replicas).toHaveLength(100);
    expect(a.heartbeat.liveReplicas).toBe(1);
  });

  it("lists every replica with its start, last beat and the counts it reports", async () => {
    const a = await replica("a");
    const b = await replica("b");
    b.heartbeat.reportStats(() => stats);
    await b.heartbeat.beat();
    await a.heartbeat.beat();
    expect(a.heartbeat.liveReplicas).toBe(2);
    const [first, second] = a.heartbeat.replicas;
    expect(first).toMatchObject({ replicaId: "a", state: "live" });
    expect(first?.stats).toBeUndefined();
    expect(second).toMatchObject({ replicaId: "b", state: "live", stats });
    expect(second?.lastBeatAt).toBeGreaterThanOrEqual(second?.startedAt ?? Number.NaN);
  });

  it("marks a replica whose process died as gone at the next beat, before its heartbeat expires", async () => {
    const a = await replica("a");
    const b = await replica("b");
    await a.heartbeat.beat();
    const changed = new Promise<void>((resolve) => a.heartbeat.onChange(resolve));
    await b.kill();
    await a.heartbeat.beat();
    await changed;
    expect(a.heartbeat.replicas.map(({ replicaId, state }) => [replicaId, state])).toEqual([
      ["a", "live"],
      ["b", "gone"],
    ]);
    expect(a.heartbeat.liveReplicas).toBe(1);
  });

  it("counts a replica that joins or leaves at once when replicas announce it, not at the next beat", async () => {
    const a = await replica("a", { announce: true });
    const joined = new Promise<void>((resolve) => a.heartbeat.onChange(resolve));
    const b = await replica("b", { announce: true });
    await joined;
    expect(a.heartbeat.liveReplicas).toBe(2);
    const left = new Promise<void>((resolve) => a.heartbeat.onChange(resolve));
    await b.heartbeat.stop();
    await left;
    expect(a.heartbeat.replicas[1]).toMatchObject({ replicaId: "b", state: "left" });
    expect(a.heartbeat.liveReplicas).toBe(1);
  });

  it("marks a replica that stopped cleanly as left", async () => {
    const a = await replica("a");
    const b = await replica("b");
    await b.heartbeat.stop();
    await a.heartbeat.beat();
    expect(a.heartbeat.replicas[1]).toMatchObject({ replicaId: "b", state: "left" });
    expect(a.heartbeat.replicas[1]?.leftAt).toBeTypeOf("number");
    expect(a.heartbeat.liveReplicas).toBe(1);
  });

  it("counts a replica whose heartbeat expired as gone, and forgets it after the retention", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const a = await replica("a", { now: clock, goneRetentionMs: 10_000 });
    await replica("b", { now: clock, goneRetentionMs: 10_000 });
    await a.heartbeat.beat();
    expect(a.heartbeat.liveReplicas).toBe(2);
    // b still listens, but it has not beaten for longer than the TTL (6 s).
    now += 7_000;
    await a.heartbeat.beat();
    expect(a.heartbeat.replicas.map((replica) => replica.state)).toEqual(["live", "gone"]);
    now += 10_000;
    await a.heartbeat.beat();
    expect(a.heartbeat.replicas.map((replica) => replica.replicaId)).toEqual(["a"]);
  });
});
