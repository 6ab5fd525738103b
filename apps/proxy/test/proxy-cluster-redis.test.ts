import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestCluster, type TestCluster } from "./cluster-harness.js";
import { closeSdk, connectSdk, postJson, sampleEntry } from "./proxy-helpers.js";

// Three replicas with a limit of 6 requests a minute per client address, shared through Redis.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    limits: { requestsPerMinute: 6 },
    http: { trustProxy: true },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
/** A plain JSON-RPC ping through the balancer from client address `address`. */
const pingFrom = (address: string) =>
  postJson(cluster.balancer.url, ping, { "x-forwarded-for": address });

describe("three replicas on one Redis", () => {
  it("hold a limit of N a minute across the replicas together", async () => {
    const startedAt = Date.now();
    const statuses: number[] = [];
    for (let index = 0; index < 9; index++) statuses.push((await pingFrom("10.0.0.1")).status);
    const allowed = statuses.filter((status) => status === 200).length;
    // A bucket of 6 refilled at 6 a minute: one more per 10 s of test time at most.
    expect(allowed).toBeGreaterThanOrEqual(6);
    expect(allowed).toBeLessThanOrEqual(6 + Math.floor((Date.now() - startedAt) / 10_000));
    expect(statuses.filter((status) => status === 429)).toHaveLength(9 - allowed);
    // Each of the three replicas answered some of the requests.
    const targets = new Set(cluster.balancer.routed.map((hop) => hop.target));
    expect(targets.size).toBe(3);
    // Another address has its own bucket.
    expect((await pingFrom("10.0.0.2")).status).toBe(200);
  });

  it("survive a Redis restart: open sessions go on, new ones get 503 until Redis is back", async () => {
    const connected = await connectSdk(cluster.balancer.url, {
      name: "steady",
      headers: { "x-forwarded-for": "10.0.1.1" },
    });
    // Each replica holds the session before Redis goes.
    for (let index = 0; index < 3; index++) await connected.client.ping();
    const lost = cluster.replicas.map((replica) =>
      replica.waitForLog((line) => String(line.message).startsWith("cluster: lost Redis at")),
    );
    await cluster.redis.shutdown();
    await Promise.all(lost);
    // The session goes on, within what was left of its address's budget (6 a minute, 5 or 6 spent
    // above): the replicas share out the rest, they do not start a new minute's worth each.
    const outcomes: string[] = [];
    for (let index = 0; index < 3; index++) {
      try {
        const result = await connected.client.callTool({
          name: "sample__add",
          arguments: { a: index, b: 1 },
        });
        expect(result.structuredContent).toEqual({ sum: index + 1 });
        outcomes.push("answered");
      } catch (error) {
        expect(String(error)).toContain("rate limit of 6 requests per minute exceeded");
        outcomes.push("limited");
      }
    }
    expect(outcomes.filter((outcome) => outcome === "answered").length).toBeLessThanOrEqual(1);
    const opening = await postJson(
      cluster.balancer.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "n", version: "1" },
        },
      },
      { accept: "application/json, text/event-stream", "x-forwarded-for": "10.0.1.2" },
    );
    expect(opening.status).toBe(503);
    const ready = await fetch(new URL("/readyz", cluster.replicas[0]?.origin));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      ready: false,
      cluster: {
        redis: "disconnected",
        degraded: true,
        rateLimits: "local: this replica's share (1/3)",
      },
    });
    for (const replica of cluster.replicas) expect(replica.child.exitCode).toBeNull();

    const back = cluster.replicas.map((replica) =>
      replica.waitForLog((line) => /^cluster: Redis at .* is back$/.test(String(line.message))),
    );
    await cluster.redis.startAgain();
    await Promise.all(back);
    const fresh = await connectSdk(cluster.balancer.url, {
      name: "fresh",
      headers: { "x-forwarded-for": "10.0.1.3" },
    });
    expect(
      (await fresh.client.callTool({ name: "sample__add", arguments: { a: 2, b: 2 } }))
        .structuredContent,
    ).toEqual({ sum: 4 });
    // The open session was saved again by the replicas that hold it: it goes on everywhere.
    for (let index = 0; index < 3; index++) await connected.client.ping();
    await closeSdk(fresh);
    await closeSdk(connected);
  });
});
