import { type Client, createClient } from "@patchbay/client";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerIn,
  type ProxyReplica,
  redisCommandCounts,
  startTestCluster,
  type TestCluster,
} from "./cluster-harness.js";
import { sampleEntry } from "./proxy-helpers.js";

// Modern (2026-07-28) clients of three real proxy processes on one Redis behind a round-robin
// balancer without affinity: every POST goes to the next replica, so a retry never lands where the
// call it resumes is held.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    limits: { requestsPerMinute: 6000 },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function modernClient(name: string): Promise<Client> {
  const client = createClient(
    { name, version: "1.0.0" },
    {
      protocolEra: "modern",
      elicitation: async (params) => ({
        action: "accept",
        content: String(params.message).includes("color") ? { color: "teal" } : { name: "Ada" },
      }),
      sampling: async () => ({
        role: "assistant",
        model: "test-model",
        content: { type: "text", text: "Hi there" },
      }),
      roots: async () => ({ roots: [{ uri: "file:///srv/project", name: "project" }] }),
    },
  );
  await client.connect(new StreamableHttpClientTransport({ url: cluster.balancer.url }));
  clients.push(client);
  return client;
}

/** The balancer's hops from index `start` on: which replica each request went to. */
const hopsFrom = (start: number) => cluster.balancer.routed.slice(start);

const MODERN_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
};
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

/** One modern tools/call POST through the balancer; its JSON-RPC answer (JSON or the SSE's last). */
async function postCall(id: number, params: Record<string, unknown>) {
  const response = await fetch(cluster.balancer.url, {
    method: "POST",
    headers: { ...MODERN_HEADERS, "mcp-name": String(params.name) },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { ...params, _meta: META },
    }),
  });
  return answerIn(await response.text()) as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  };
}

describe("modern clients of three replicas without affinity", () => {
  it("resume a held call from whichever replica each retry reaches (elicitation, two rounds)", async () => {
    const client = await modernClient("roaming-modern");
    const start = cluster.balancer.routed.length;
    const result = await client.callTool({
      name: "sample__test_input_required_result_multi_round",
      arguments: {},
    });
    expect(result.content).toEqual([{ type: "text", text: "Ada likes teal" }]);
    // The call, then two retries: three POSTs, each on another replica.
    const hops = hopsFrom(start);
    expect(hops.map((hop) => hop.method)).toEqual(["POST", "POST", "POST"]);
    expect(new Set(hops.map((hop) => hop.target)).size).toBe(3);
    // The replica holding the call ran both retries, relayed to it, and logged each. Its log comes
    // through a pipe of its own: the second line may still be on its way when the answer is here.
    const holder = cluster.replicas[hops[0]?.target as number] as ProxyReplica;
    const relayedLines = () => holder.logs().filter((line) => line.relayed === true);
    await holder.waitForLog(() => relayedLines().length >= 2);
    const relayed = relayedLines();
    expect(relayed.map((line) => [line.method, line.tool, line.client, line.status])).toEqual([
      ["tools/call", "sample__test_input_required_result_multi_round", "anonymous", "ok"],
      ["tools/call", "sample__test_input_required_result_multi_round", "anonymous", "ok"],
    ]);
  });

  it("answer sampling, elicitation and roots asked at once, retried on another replica", async () => {
    const client = await modernClient("asking-modern");
    const start = cluster.balancer.routed.length;
    const result = await client.callTool({
      name: "sample__test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(result.content).toEqual([{ type: "text", text: "name=Ada greeting=Hi there roots=1" }]);
    // One retry, or two when the backend's three questions came further apart than inputGatherMs.
    const [call, retry, ...more] = hopsFrom(start);
    expect(more.length).toBeLessThanOrEqual(1);
    expect(retry?.target).not.toBe(call?.target);
  });

  it("tell a listen stream held by one replica of a list change caused on another, once", async () => {
    const client = await modernClient("listening-modern");
    const heard: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    client.on("notifications/tools/list_changed", (params) => {
      heard.push(params);
      waiters.shift()?.();
    });
    const nextChange = () => new Promise<void>((resolve) => waiters.push(resolve));
    const start = cluster.balancer.routed.length;
    const subscription = await client.listen({ toolsListChanged: true });
    const listenTarget = hopsFrom(start)[0]?.target;
    const changed = nextChange();
    const toggled = cluster.balancer.routed.length;
    await client.callTool({ name: "sample__toggle_extra_tool", arguments: {} });
    const toggleTarget = hopsFrom(toggled)[0]?.target;
    expect(toggleTarget).not.toBe(listenTarget);
    await changed;
    // The same replica's backend changes back (a new list): told too, and nothing twice before it.
    while (((cluster.balancer.routed.at(-1)?.target ?? 0) + 1) % 3 !== toggleTarget) {
      await client.ping();
    }
    const changedBack = nextChange();
    const back = cluster.balancer.routed.length;
    await client.callTool({ name: "sample__toggle_extra_tool", arguments: {} });
    expect(hopsFrom(back)[0]?.target).toBe(toggleTarget);
    await changedBack;
    expect(heard).toHaveLength(2);
    for (const params of heard) {
      expect(params._meta).toEqual({ "io.modelcontextprotocol/subscriptionId": subscription.id });
    }
    await subscription.close();
  });

  it("tell a listen stream held by one replica of a resource update caused on another", async () => {
    const client = await modernClient("watching-modern");
    const uri = "test://watched-resource";
    const updated = new Promise<Record<string, unknown>>((resolve) => {
      const off = client.on("notifications/resources/updated", (params) => {
        off();
        resolve(params);
      });
    });
    const start = cluster.balancer.routed.length;
    const subscription = await client.listen({ resourceSubscriptions: [uri] });
    expect(subscription.acknowledged).toEqual({ resourceSubscriptions: [uri] });
    const listenTarget = hopsFrom(start)[0]?.target;
    const changed = cluster.balancer.routed.length;
    await client.callTool({ name: "sample__update_watched_resource", arguments: {} });
    expect(hopsFrom(changed)[0]?.target).not.toBe(listenTarget);
    expect(await updated).toEqual({
      uri,
      _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id },
    });
    await subscription.close();
  });

  it("use about 20 Redis commands per modern call answered over two replicas, all replicas together", async () => {
    const client = await modernClient("counted-modern");
    await client.ping();
    const before = await redisCommandCounts(cluster.redis.url);
    const calls = 10;
    for (let index = 0; index < calls; index++) {
      const result = await client.callTool({
        name: "sample__test_input_required_result_elicitation",
        arguments: {},
      });
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    }
    const after = await redisCommandCounts(cluster.redis.url);
    const used = [...after].map(
      ([name, count]) => [name, count - (before.get(name) ?? 0)] as const,
    );
    const total = used.reduce((sum, [, count]) => sum + count, 0);
    // Written down in the proxy README: per call, two POSTs' rate-limit scripts (EVALSHA and the
    // 4 commands each runs), the held-call ledger (MULTI, 4 commands, EXEC; ZREM on resume), and
    // the relayed retry and its answer (2 PUBLISH); heartbeats (every 2 s) may add a few.
    console.info(
      `Redis commands for ${calls} modern calls with one input round: ${total} (${(total / calls).toFixed(1)} a call)`,
      Object.fromEntries(used.filter(([, count]) => count > 0)),
    );
    expect(total / calls).toBeLessThan(24);
  });

  // Last: it kills a replica.
  it("answer a retry whose call was held by a replica that died with a clear error, at once", async () => {
    const name = "sample__test_input_required_result_elicitation";
    const start = cluster.balancer.routed.length;
    const first = await postCall(1, { name });
    expect(first.result?.resultType).toBe("input_required");
    const holder = cluster.replicas[hopsFrom(start)[0]?.target ?? -1];
    if (holder?.child.pid === undefined) throw new Error("no holder");
    process.kill(holder.child.pid, "SIGKILL");
    await holder.exited;
    const retry = await postCall(2, {
      name,
      requestState: first.result?.requestState,
      inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
    });
    expect(retry.error?.code).toBe(-32009);
    expect(retry.error?.message).toContain(`held by proxy replica ${holder.replicaId}`);
    expect(retry.error?.message).toMatch(/gone|no longer runs/);
    expect(retry.error?.message).toContain("send the request again without requestState");
  });
});
