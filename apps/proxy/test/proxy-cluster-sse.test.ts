import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { RoutedRequest } from "@patchbay/cluster-redis/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisCommandCounts, startTestCluster, type TestCluster } from "./cluster-harness.js";
import { postJson, sampleEntry } from "./proxy-helpers.js";

// Legacy HTTP+SSE (2024-11-05) through three replicas behind a round-robin balancer without
// affinity: the stream stays on one replica, the client's POSTs land on any.
const ALICE = "alice-token-sse-0123456789";
const BOB = "bob-token-sse-0123456789ab";

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    auth: {
      tokens: [
        { name: "alice", token: ALICE },
        { name: "bob", token: BOB },
      ],
    },
    limits: { requestsPerMinute: 600 },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

/** The official SDK's legacy client through the balancer, answering sampling requests. */
async function connectLegacy() {
  let sessionId = "";
  const transport = new SSEClientTransport(new URL("/sse", cluster.balancer.url.origin), {
    requestInit: { headers: { authorization: `Bearer ${ALICE}` } },
    fetch: (url, init) => {
      // The SDK keeps the endpoint to itself: the session id is in the URL of each POST.
      if (init?.method === "POST") {
        sessionId = new URL(String(url)).searchParams.get("sessionId") ?? "";
      }
      return fetch(url, init);
    },
  });
  const client = new Client(
    { name: "legacy", version: "1.0.0" },
    { capabilities: { sampling: {} } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    model: "m",
    role: "assistant",
    content: { type: "text", text: "from the client" },
  }));
  await client.connect(transport);
  return { client, sessionId: () => sessionId };
}

const ping = { jsonrpc: "2.0", id: 7, method: "ping" };
/** A notification the session ignores (no request of that id), so the client reads no answer. */
const cancelNothing = {
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId: "none" },
};
const messagesOf = (origin: URL, sessionId: string) =>
  new URL(`/messages?sessionId=${encodeURIComponent(sessionId)}`, origin);

describe("legacy SSE sessions behind a balancer without affinity", () => {
  it("serve every POST of one session, on whichever replica it lands, through the stream's replica", async () => {
    const before = cluster.balancer.routed.length;
    const { client } = await connectLegacy();
    for (let index = 0; index < 3; index++) {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain("sample__add");
      const result = await client.callTool({
        name: "sample__add",
        arguments: { a: index, b: 1 },
      });
      expect(result.structuredContent).toEqual({ sum: index + 1 });
    }
    // Sampling from the backend reaches the client on its stream; its answer is POSTed anywhere.
    const sampled = await client.callTool({
      name: "sample__test_sampling",
      arguments: { prompt: "hi" },
    });
    expect(sampled.content).toEqual([{ type: "text", text: "LLM response: from the client" }]);
    // A hop is recorded when its 202 comes back, which may be after its answer came on the stream:
    // wait for all of them. initialize, initialized, 3 × (tools/list, tools/call), the sampling
    // call and the client's answer.
    const isPost = (hop: RoutedRequest) =>
      hop.method === "POST" && hop.path.startsWith("/messages");
    const postCount = () => cluster.balancer.routed.slice(before).filter(isPost).length;
    if (postCount() < 10) await cluster.balancer.next(() => postCount() >= 10);
    const hops = cluster.balancer.routed.slice(before);
    expect(hops.filter((hop) => hop.method === "GET" && hop.path === "/sse")).toHaveLength(1);
    const posts = hops.filter(isPost);
    expect(posts, JSON.stringify(hops)).toHaveLength(10);
    expect(new Set(posts.map((hop) => hop.target)).size).toBeGreaterThanOrEqual(2);
    await client.close();
  });

  it("refuse another token's POST for the session, and a POST for an unknown session, with 404 on every replica", async () => {
    const { client, sessionId } = await connectLegacy();
    for (const replica of cluster.replicas) {
      const foreign = await postJson(messagesOf(replica.origin, sessionId()), ping, {
        authorization: `Bearer ${BOB}`,
      });
      expect(foreign.status).toBe(404);
      const unknown = await postJson(messagesOf(replica.origin, "no-such-session"), ping, {
        authorization: `Bearer ${ALICE}`,
      });
      expect(unknown.status).toBe(404);
      // The session's own token is served on every replica (202).
      const own = await postJson(messagesOf(replica.origin, sessionId()), cancelNothing, {
        authorization: `Bearer ${ALICE}`,
      });
      expect(own.status).toBe(202);
    }
    await client.close();
  });

  it("use fewer than 15 Redis commands per tools/call of a legacy session, all replicas together", async () => {
    const { client } = await connectLegacy();
    await client.ping();
    const before = await redisCommandCounts(cluster.redis.url);
    const calls = 30;
    for (let index = 0; index < calls; index++) {
      await client.callTool({ name: "sample__add", arguments: { a: index, b: 0 } });
    }
    const after = await redisCommandCounts(cluster.redis.url);
    const used = [...after].map(
      ([name, count]) => [name, count - (before.get(name) ?? 0)] as const,
    );
    const total = used.reduce((sum, [, count]) => sum + count, 0);
    // Written down in the proxy README: the address's and the token's rate-limit scripts (EVALSHA,
    // counted with the 4 commands each runs), and on the two replicas of three that do not hold
    // the stream, GET of the holder record and PUBLISH to the holder. Heartbeats may add a few.
    console.info(
      `Redis commands for ${calls} legacy calls: ${total} (${(total / calls).toFixed(1)} a call)`,
      Object.fromEntries(used.filter(([, count]) => count > 0)),
    );
    expect(total / calls).toBeLessThan(15);
    await client.close();
  });

  // Last: it kills a replica.
  it("end the session with its stream when the holder dies: 404 elsewhere, and a new stream works", async () => {
    const { client, sessionId } = await connectLegacy();
    const streamHop = cluster.balancer.routed.findLast(
      (hop) => hop.method === "GET" && hop.path === "/sse",
    );
    const holder = cluster.replicas[streamHop?.target ?? -1];
    if (holder === undefined) throw new Error("no replica took the stream");
    process.kill(holder.child.pid as number, "SIGKILL");
    await holder.exited;
    for (const replica of cluster.replicas.filter((other) => other !== holder)) {
      const answer = await postJson(messagesOf(replica.origin, sessionId()), ping, {
        authorization: `Bearer ${ALICE}`,
      });
      expect(answer.status).toBe(404);
    }
    const again = await connectLegacy();
    expect(again.sessionId()).not.toBe(sessionId());
    const result = await again.client.callTool({ name: "sample__add", arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await again.client.close();
    // Its EventSource may have opened a stream again meanwhile (a session of its own): closed too.
    await client.close();
  });
});
