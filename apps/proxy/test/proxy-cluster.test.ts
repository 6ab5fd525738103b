import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  redisCli,
  redisCommandCounts,
  startTestCluster,
  type TestCluster,
} from "./cluster-harness.js";
import { closeSdk, connectSdk, postJson, sampleEntry } from "./proxy-helpers.js";

// Three real proxy processes on one Redis behind a round-robin balancer without affinity.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    limits: { requestsPerMinute: 600 },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

const rpcLines = (method: string) =>
  cluster.replicas.map(
    (replica) =>
      replica.logs().filter((line) => line.kind === "rpc" && line.method === method).length,
  );

describe("three replicas behind a balancer without affinity", () => {
  it("serve every request of one session on any replica, with one initialize", async () => {
    const initializesBefore = rpcLines("initialize").reduce((a, b) => a + b, 0);
    const connected = await connectSdk(cluster.balancer.url, { name: "roaming" });
    for (let index = 0; index < 6; index++) {
      const result = await connected.client.callTool({
        name: "sample__add",
        arguments: { a: index, b: 1 },
      });
      expect(result.structuredContent).toEqual({ sum: index + 1 });
    }
    const calls = rpcLines("tools/call");
    expect(calls.every((count) => count >= 1)).toBe(true);
    expect(rpcLines("initialize").reduce((a, b) => a + b, 0)).toBe(initializesBefore + 1);
    await closeSdk(connected);
  });

  it("end a session everywhere on DELETE: its id is then 404 on every replica", async () => {
    const connected = await connectSdk(cluster.balancer.url, { name: "leaving" });
    const sessionId = connected.transport.sessionId as string;
    // Every replica serves (and so holds) the session before it ends.
    for (let index = 0; index < 3; index++) await connected.client.ping();
    await closeSdk(connected);
    for (const replica of cluster.replicas) {
      const answer = await postJson(
        new URL("/mcp", replica.origin),
        { jsonrpc: "2.0", id: 1, method: "ping" },
        {
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-11-25",
        },
      );
      expect(answer.status).toBe(404);
    }
  });

  it("carry a backend's sampling request asked on one replica, answered through another", async () => {
    const connected = await connectSdk(cluster.balancer.url, {
      name: "sampler",
      capabilities: { sampling: {} },
    });
    connected.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      model: "m",
      role: "assistant",
      content: { type: "text", text: "from the client" },
    }));
    const before = cluster.balancer.routed.length;
    // A hop is recorded when its answer's headers come back: the 202 to the client's answer may
    // come after the tool's result, so wait for the second POST rather than read the list at once.
    let postsSeen = 0;
    const secondPost = cluster.balancer.next((hop) => hop.method === "POST" && ++postsSeen === 2);
    const result = await connected.client.callTool({
      name: "sample__test_sampling",
      arguments: { prompt: "hi" },
    });
    expect(result.content).toEqual([{ type: "text", text: "LLM response: from the client" }]);
    await secondPost;
    // The call's POST and the POST of the client's answer went to two different replicas.
    const posts = cluster.balancer.routed.slice(before).filter((hop) => hop.method === "POST");
    expect(posts).toHaveLength(2);
    expect(posts[0]?.target).not.toBe(posts[1]?.target);
    await closeSdk(connected);
  });

  it("never show the cluster block (the Redis URL) to clients in gateway_status", async () => {
    const connected = await connectSdk(cluster.balancer.url, { name: "status" });
    const status = JSON.stringify(
      await connected.client.callTool({ name: "gateway_status", arguments: {} }),
    );
    expect(status).toContain("sample");
    expect(status).not.toContain("redis://");
    expect(status).not.toContain('"cluster"');
    await closeSdk(connected);
  });

  it("report Redis and the live replicas in /readyz and /metrics", async () => {
    const ready = await fetch(new URL("/readyz", cluster.replicas[0]?.origin));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      cluster: { replicaId: "replica-0", redis: "connected" },
    });
    const metrics = await (await fetch(new URL("/metrics", cluster.replicas[1]?.origin))).text();
    expect(metrics).toContain('patchbay_cluster_store_up{replica="replica-1"} 1');
    expect(metrics).toMatch(/patchbay_cluster_replicas\{replica="replica-1"\} [1-3]\n/);
    // The first test's session was adopted by the replicas that did not create it.
    expect(metrics).toMatch(/patchbay_cluster_adopted_sessions\{replica="replica-1"\} [1-9]/);
  });
});

describe("an attacker with Redis access but not the cluster secret", () => {
  it("cannot run a call on a replica: a forged relay message is dropped, logged and counted", async () => {
    const replica = cluster.replicas[0];
    if (replica === undefined) throw new Error("no replica");
    const dropped = replica.waitForLog((line) =>
      String(line.message).startsWith("cluster: dropped 1 Redis message(s)"),
    );
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "sample__add" } };
    const forged = {
      t: "call",
      id: "x",
      from: "replica-1",
      request: { profile: "", caller: "admin", message: call },
    };
    const channel = `patchbay:modern:${replica.replicaId}`;
    expect(await redisCli(cluster.redis.url, "publish", channel, JSON.stringify(forged))).toBe(
      "1\n",
    );
    expect(String((await dropped).message)).toContain(`(last at ${channel})`);
    const metrics = await (await fetch(new URL("/metrics", replica.origin))).text();
    expect(metrics).toContain(
      `patchbay_cluster_rejected_messages{replica="${replica.replicaId}"} 1\n`,
    );
    const ready = await (await fetch(new URL("/readyz", replica.origin))).json();
    expect(ready).toMatchObject({ cluster: { degraded: false, rejectedMessages: 1 } });
  });
});

describe("Redis operations", () => {
  it("use fewer than 17 Redis commands per tools/call of an open session, all replicas together", async () => {
    const connected = await connectSdk(cluster.balancer.url, { name: "counted" });
    await connected.client.ping();
    const before = await redisCommandCounts(cluster.redis.url);
    const calls = 30;
    for (let index = 0; index < calls; index++) {
      await connected.client.callTool({ name: "sample__add", arguments: { a: index, b: 0 } });
    }
    const after = await redisCommandCounts(cluster.redis.url);
    const used = [...after].map(
      ([name, count]) => [name, count - (before.get(name) ?? 0)] as const,
    );
    const total = used.reduce((sum, [, count]) => sum + count, 0);
    // Measured and written down in the proxy README ("Redis operations per call"): the rate-limit
    // script (EVALSHA, counted with the 4 commands it runs) and two MULTI transactions (XADD and
    // PEXPIRE for the stream's priming event and for the answer), and the list of calls in flight
    // (HSET, PEXPIRE, HDEL). Heartbeats (every 2 s) may add a few.
    console.info(
      `Redis commands for ${calls} calls: ${total} (${(total / calls).toFixed(1)} a call)`,
      Object.fromEntries(used.filter(([, count]) => count > 0)),
    );
    expect(total / calls).toBeLessThan(17);
    await closeSdk(connected);
  });
});
