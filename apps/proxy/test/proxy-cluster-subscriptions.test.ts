import { createClient } from "@patchbay/client";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerIn,
  openGetStream,
  type ProxyReplica,
  redisCli,
  startReplica,
  startTestCluster,
  type TestCluster,
} from "./cluster-harness.js";
import { sampleEntry } from "./proxy-helpers.js";

// Legacy `resources/subscribe` of a Streamable HTTP session served by three replicas behind a
// round-robin balancer: the subscription is kept in the session's shared record, so every replica
// holding the session subscribes its own backends, and one that takes over the GET stream too.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    limits: { requestsPerMinute: 100_000 },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

const VERSION = "2025-11-25";
const WATCHED = "test://watched-resource";
let nextId = 100;

/** A POST of the session to replica `target`; its JSON-RPC answer (JSON or the SSE's last). */
async function post(
  target: number,
  sessionId: string | undefined,
  method: string,
  params?: unknown,
) {
  nextId += 1;
  const response = await fetch(new URL("/mcp", replica(target).origin), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId, method, params }),
  });
  return {
    sessionId: response.headers.get("mcp-session-id"),
    answer: answerIn(await response.text()) as { result?: unknown; error?: { message: string } },
  };
}

/** A field of a Redis hash, through Debian's `redis-cli`. */
const redisField = (key: string, field: string) => redisCli(cluster.redis.url, "hget", key, field);

const replica = (index: number) => cluster.replicas[index] as ProxyReplica;

/** The GET stream of the session on replica `target`. */
const openGet = (target: number, sessionId: string, lastEventId?: string) =>
  openGetStream(new URL("/mcp", replica(target).origin), sessionId, lastEventId);

/** Runs the sample's tool that changes the watched resource on replica `target`'s backend. */
async function changeWatched(target: number, sessionId: string): Promise<void> {
  const call = { name: "sample__update_watched_resource", arguments: {} };
  const { answer } = await post(target, sessionId, "tools/call", call);
  expect(answer.result).toBeDefined();
}

describe("a replica started after a modern listen stream subscribed to a resource", () => {
  it("subscribes its backends for that stream, whose replica hears the updates they announce", async () => {
    const modern = (url: string | URL) => {
      const client = createClient(
        { name: "late-listener", version: "1.0.0" },
        { protocolEra: "modern" },
      );
      return client.connect(new StreamableHttpClientTransport({ url })).then(() => client);
    };
    const listener = await modern(cluster.balancer.url);
    const updated = new Promise<Record<string, unknown>>((resolve) => {
      const off = listener.on("notifications/resources/updated", (params) => {
        off();
        resolve(params);
      });
    });
    const subscription = await listener.listen({ resourceSubscriptions: [WATCHED] });
    expect(subscription.acknowledged).toEqual({ resourceSubscriptions: [WATCHED] });
    const late = await startReplica(cluster.configPath, cluster.redis.url, "replica-late");
    cluster.replicas.push(late);
    // The same caller (anonymous) on the late replica, directly: its backend changes the resource.
    const caller = await modern(new URL(new URL(cluster.balancer.url).pathname, late.origin));
    await caller.callTool({ name: "sample__update_watched_resource", arguments: {} });
    expect(await updated).toEqual({
      uri: WATCHED,
      _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id },
    });
    await subscription.close();
    await Promise.all([listener.close(), caller.close()]);
  });
});

describe("resources/subscribe of a session served by several replicas", () => {
  it("reaches the GET stream from every replica's backend, and after the stream's replica died or drained", async () => {
    const initialize = {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: "subscriber", version: "1" },
    };
    const sessionId = (await post(0, undefined, "initialize", initialize)).sessionId as string;
    await post(0, sessionId, "ping");
    // Replica 1 holds the session before the subscription; replica 2 never sees it until later.
    await post(1, sessionId, "ping");
    const subscribed = await post(0, sessionId, "resources/subscribe", { uri: WATCHED });
    expect(subscribed.answer).toEqual({ jsonrpc: "2.0", id: nextId, result: {} });
    expect(await redisField(`patchbay:session:${sessionId}`, `sub:${WATCHED}`)).toBe("1\n");
    const stream = await openGet(0, sessionId);
    expect(stream.status).toBe(200);

    // Replica 1's backend changes the resource: its router session was subscribed through the
    // shared record, and the update goes to replica 0's GET stream.
    await changeWatched(1, sessionId);
    const [first] = await stream.messages(1, "notifications/resources/updated");
    expect(first?.params).toEqual({ uri: WATCHED });

    const holder = replica(0);
    process.kill(holder.child.pid as number, "SIGKILL");
    await holder.exited;
    stream.abort();
    // Replica 2 adopts the session with the GET stream's resumption and subscribes its backend.
    const resumed = await openGet(2, sessionId, first?.id);
    expect(resumed.status).toBe(200);
    await changeWatched(2, sessionId);
    expect((await resumed.messages(1, "notifications/resources/updated")).at(-1)?.params).toEqual({
      uri: WATCHED,
    });
    await changeWatched(1, sessionId);
    const updates = await resumed.messages(2, "notifications/resources/updated");
    expect(updates.map((update) => update.params)).toEqual([{ uri: WATCHED }, { uri: WATCHED }]);
    // Replica 2 drained (SIGTERM): the stream resumes on a replica started since, which adopts the
    // session and subscribes its backend.
    const taker = await startReplica(cluster.configPath, cluster.redis.url, "replica-taker");
    cluster.replicas.push(taker);
    const takerIndex = cluster.replicas.length - 1;
    process.kill(replica(2).child.pid as number, "SIGTERM");
    expect(await replica(2).exited).toEqual([0, null]);
    resumed.abort();
    const again = await openGet(takerIndex, sessionId, updates.at(-1)?.id);
    expect(again.status).toBe(200);
    await changeWatched(takerIndex, sessionId);
    await again.messages(1, "notifications/resources/updated");
    await changeWatched(1, sessionId);
    await again.messages(2, "notifications/resources/updated");
    // Unsubscribed: gone from the shared record, and this replica's backend tells it no more (the
    // list change after it comes through the same stream).
    const unsubscribed = await post(takerIndex, sessionId, "resources/unsubscribe", {
      uri: WATCHED,
    });
    expect(unsubscribed.answer.result).toEqual({});
    expect(await redisField(`patchbay:session:${sessionId}`, `sub:${WATCHED}`)).toBe("\n");
    await changeWatched(takerIndex, sessionId);
    const toggle = { name: "sample__toggle_extra_tool", arguments: {} };
    await post(takerIndex, sessionId, "tools/call", toggle);
    await again.messages(1, "notifications/tools/list_changed");
    expect(await again.messages(2, "notifications/resources/updated")).toHaveLength(2);
    again.abort();
  });
});
