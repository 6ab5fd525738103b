import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisCluster, type RedisCluster } from "./redis-cluster.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
const clusters: RedisCluster[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis.stop());
afterEach(async () => {
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
});

async function replica(replicaId: string, keyPrefix: string): Promise<RedisCluster> {
  const cluster = await createRedisCluster({
    url: redis.url,
    secret,
    replicaId,
    keyPrefix,
    sessionTtlMs: 60_000,
  });
  clusters.push(cluster);
  return cluster;
}

const record = (sessionId: string, lastActivityAt: number, name: string) => ({
  sessionId,
  owner: "alice",
  profile: "team",
  protocolVersion: "2025-06-18",
  initializeParams: { clientInfo: { name, version: "1.2" }, capabilities: {} },
  lastActivityAt,
});

describe("sessionSummaries", () => {
  it("lists every replica's sessions, most recent first, with the owner's name and no id", async () => {
    const a = await replica("a", "list1:");
    const b = await replica("b", "list1:");
    await a.sessions.save(record("secret-session-id-1", 1000, "older"), 60_000);
    await b.sessions.save(record("secret-session-id-2", 2000, "newer"), 60_000);
    await a.sessions.touch("secret-session-id-1", 3000, 60_000);
    // Another deployment on the same Redis is not listed.
    const other = await replica("c", "list1-other:");
    await other.sessions.save(record("elsewhere", 5000, "elsewhere"), 60_000);
    const listing = await b.sessionSummaries();
    expect(listing).toEqual({
      truncated: false,
      sessions: [
        {
          client: "older",
          clientVersion: "1.2",
          profile: "team",
          owner: "alice",
          protocolVersion: "2025-06-18",
          lastActivityAt: 3000,
        },
        expect.objectContaining({ client: "newer", lastActivityAt: 2000 }),
      ],
    });
    expect(JSON.stringify(listing)).not.toContain("secret-session-id");
  });

  it("says when the listing was cut, and cuts long client names", async () => {
    const a = await replica("a", "list2:");
    for (let index = 0; index < 205; index++) {
      await a.sessions.save(record(`s${index}`, index, "n".repeat(300)), 60_000);
    }
    const listing = await a.sessionSummaries();
    expect(listing.truncated).toBe(true);
    expect(listing.sessions).toHaveLength(200);
    expect(listing.sessions[0]?.client).toHaveLength(200);
  });
});
