import { type Client, createClient } from "@patchbay/client";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openGetStream,
  type ProxyReplica,
  startTestCluster,
  type TestCluster,
} from "./cluster-harness.js";
import { sampleEntry } from "./proxy-helpers.js";

// List changes across three replicas of a shared backend and of a per-session one (a copy per
// replica and per session or modern caller, whose changes concern that session or caller only).
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry(), own: sampleEntry({ isolation: "per-session" }) },
    limits: { requestsPerMinute: 100_000 },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

const replica = (index: number) => cluster.replicas[index] as ProxyReplica;
const mcpUrl = (index: number) =>
  new URL(new URL(cluster.balancer.url).pathname, replica(index).origin);

async function modernClient(url: URL | string): Promise<Client> {
  const client = createClient({ name: "per-session", version: "1.0.0" }, { protocolEra: "modern" });
  await client.connect(new StreamableHttpClientTransport({ url }));
  clients.push(client);
  return client;
}

describe("list changes of shared and per-session backends across replicas", () => {
  it("tell a modern listen stream each change once: on its own replica, and of its caller's per-session backend elsewhere", async () => {
    const listener = await modernClient(cluster.balancer.url);
    const heard: unknown[] = [];
    const waiters: (() => void)[] = [];
    listener.on("notifications/tools/list_changed", (params) => {
      heard.push(params);
      waiters.shift()?.();
    });
    const next = () => new Promise<void>((resolve) => waiters.push(resolve));
    const start = cluster.balancer.routed.length;
    const subscription = await listener.listen({ toolsListChanged: true });
    const holder = cluster.balancer.routed[start]?.target as number;
    // The shared backend of the replica holding the stream changes: told once, not also by the
    // legacy session behind the front there.
    const first = next();
    const here = await modernClient(mcpUrl(holder));
    await here.callTool({ name: "sample__toggle_extra_tool", arguments: {} });
    await first;
    // The same caller's per-session backend on another replica changes: relayed to the stream.
    const second = next();
    const elsewhere = await modernClient(mcpUrl((holder + 1) % 3));
    await elsewhere.callTool({ name: "own__toggle_extra_tool", arguments: {} });
    await second;
    expect(heard).toEqual([
      { _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id } },
      { _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id } },
    ]);
    await subscription.close();
  });

  it("bring a legacy session's per-session backend change on one replica to its GET stream on another", async () => {
    const version = "2025-11-25";
    const headers = (sessionId?: string) => ({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
      ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    });
    const post = async (index: number, body: unknown, sessionId?: string) => {
      const response = await fetch(mcpUrl(index), {
        method: "POST",
        headers: headers(sessionId),
        body: JSON.stringify(body),
      });
      await response.text();
      return response.headers.get("mcp-session-id") as string;
    };
    const clientInfo = { name: "legacy", version: "1" };
    const initialize = { protocolVersion: version, capabilities: {}, clientInfo };
    const sessionId = await post(0, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: initialize,
    });
    await post(0, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
    const stream = await openGetStream(mcpUrl(0), sessionId);
    expect(stream.status).toBe(200);
    const call = { name: "own__toggle_extra_tool", arguments: {} };
    await post(1, { jsonrpc: "2.0", id: 2, method: "tools/call", params: call }, sessionId);
    const [changed] = await stream.messages(1);
    expect(changed?.method).toBe("notifications/tools/list_changed");
    stream.abort();
  });
});
