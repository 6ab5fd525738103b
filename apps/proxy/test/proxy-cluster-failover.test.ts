import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openGetStream,
  type ProxyReplica,
  startTestCluster,
  type TestCluster,
} from "./cluster-harness.js";
import { connectSdk, sampleEntry } from "./proxy-helpers.js";

// Three replicas on one Redis behind a round-robin balancer; one of them is killed with SIGKILL.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    limits: { requestsPerMinute: 100_000 },
  });
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

const VERSION = "2025-11-25";

/** A POST through the balancer, read whole. */
async function post(body: unknown, sessionId?: string): Promise<Response> {
  return fetch(cluster.balancer.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    },
    body: JSON.stringify(body),
  });
}

/** A GET stream through the balancer, read event by event. */
const openGet = (sessionId: string, lastEventId?: string) =>
  openGetStream(cluster.balancer.url, sessionId, lastEventId);

/** The replica the balancer sent the last GET to. */
function lastGetTarget(): ProxyReplica {
  const hop = cluster.balancer.routed.filter((entry) => entry.method === "GET").at(-1);
  return cluster.replicas[hop?.target ?? -1] as ProxyReplica;
}

/** Opens a session through the balancer with raw requests; resolves with its id. */
async function openSession(): Promise<string> {
  const opened = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  });
  const sessionId = opened.headers.get("mcp-session-id") as string;
  await opened.text();
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionId)).text();
  return sessionId;
}

describe("a message for the GET stream", () => {
  it("sent while no replica holds the stream is kept, and the stream gets it when it opens on another replica", async () => {
    const sessionId = await openSession();
    // The toggle changes one replica's backend, whose router tells the session's GET stream,
    // which no replica holds yet.
    const call = { name: "sample__toggle_extra_tool", arguments: {} };
    await (
      await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: call }, sessionId)
    ).text();
    const toggled = cluster.balancer.routed.filter((hop) => hop.method === "POST").at(-1);
    const stream = await openGet(sessionId);
    expect(stream.status).toBe(200);
    expect(lastGetTarget()).not.toBe(cluster.replicas[toggled?.target ?? -1]);
    const [first] = await stream.messages(1);
    expect(JSON.parse(first?.data ?? "{}").method).toBe("notifications/tools/list_changed");
    // Kept messages go out on the stream as any other: stored, with an id to resume from.
    expect(first?.id).toMatch(/\.standalone@/);
    stream.abort();
  });
});

describe("a replica killed with SIGKILL", () => {
  it("leaves its GET stream resumable on another replica, no event lost or repeated, nor one sent meanwhile", async () => {
    const sessionId = await openSession();
    const stream = await openGet(sessionId);
    expect(stream.status).toBe(200);
    const holder = lastGetTarget();
    // Each toggle changes one replica's backend, whose router tells the session's GET stream.
    for (let index = 1; index <= 3; index++) {
      const call = { name: "sample__toggle_extra_tool", arguments: {} };
      await (
        await post(
          { jsonrpc: "2.0", id: 10 + index, method: "tools/call", params: call },
          sessionId,
        )
      ).text();
      await stream.messages(index);
    }
    const seen = await stream.messages(3);
    expect(
      seen.every((event) => JSON.parse(event.data).method === "notifications/tools/list_changed"),
    ).toBe(true);

    process.kill(holder.child.pid as number, "SIGKILL");
    await holder.exited;
    stream.abort();
    // Told while the replica holding the stream is gone: kept for the stream.
    const call = { name: "sample__toggle_extra_tool", arguments: {} };
    await (
      await post({ jsonrpc: "2.0", id: 20, method: "tools/call", params: call }, sessionId)
    ).text();
    // A client that had read only the first event resumes from it, through another replica.
    const resumed = await openGet(sessionId, seen[0]?.id);
    expect(resumed.status).toBe(200);
    expect(lastGetTarget()).not.toBe(holder);
    const replayed = await resumed.messages(3);
    expect(replayed.slice(0, 2).map((event) => event.id)).toEqual([seen[1]?.id, seen[2]?.id]);
    expect(JSON.parse(replayed[2]?.data ?? "{}").method).toBe("notifications/tools/list_changed");
    // And the stream goes on there.
    await (
      await post({ jsonrpc: "2.0", id: 21, method: "tools/call", params: call }, sessionId)
    ).text();
    const after = await resumed.messages(4);
    expect(JSON.parse(after[3]?.data ?? "{}").method).toBe("notifications/tools/list_changed");
    resumed.abort();
  });

  // Each client resumes each broken POST stream (GET + Last-Event-ID) on its own; the replica it
  // lands on answers there the calls of that stream only (a client may take every response on a
  // resumed stream for that stream's call, as SDK 1.x does when given a resumption token), each
  // call once across the replicas.
  it("answers every call of a concurrent load once, and the sessions go on without initialize", async () => {
    const alive = cluster.replicas.filter(
      (replica) => replica.child.exitCode === null && replica.child.signalCode === null,
    );
    expect(alive.length).toBeGreaterThanOrEqual(2);
    const initializes = () =>
      cluster.replicas.flatMap((replica) =>
        replica.logs().filter((line) => line.kind === "rpc" && line.method === "initialize"),
      ).length;
    const clients = await Promise.all(
      ["a", "b", "c"].map((name) => connectSdk(cluster.balancer.url, { name: `load-${name}` })),
    );
    const before = initializes();
    // A second answer to a call would reach the client as a response to an unknown id.
    const errors: string[] = [];
    for (const { client } of clients) client.onerror = (error) => errors.push(String(error));
    const victim = alive[0] as ProxyReplica;
    let killed = false;
    const settled = await Promise.allSettled(
      clients.flatMap(({ client }) =>
        Array.from({ length: 6 }, (_, index) =>
          client.callTool(
            { name: "sample__long_task", arguments: { steps: 4, stepMs: 50 + index * 10 } },
            undefined,
            {
              timeout: 5_000,
              onprogress: () => {
                if (killed) return;
                killed = true;
                process.kill(victim.child.pid as number, "SIGKILL");
              },
            },
          ),
        ),
      ),
    );
    await victim.exited;
    expect(settled).toHaveLength(18);
    const results = settled.filter((outcome) => outcome.status === "fulfilled");
    for (const outcome of results) {
      expect(outcome.value.content).toEqual([{ type: "text", text: "Completed 4 steps" }]);
    }
    // Calls that were on the killed replica end with an error: the balancer's 502 when the replica
    // died before its answer began, else -32017 from the replica the client resumed its stream on;
    // every other call has its result.
    for (const outcome of settled) {
      if (outcome.status === "rejected")
        expect(String(outcome.reason)).toMatch(
          /replica running this call \(replica-\d\) stopped|bad gateway/,
        );
    }
    expect(results.length).toBeGreaterThan(0);
    expect(settled.some((outcome) => outcome.status === "rejected")).toBe(true);
    // Every session goes on, on the replicas left, without a new initialize.
    for (const { client } of clients) {
      const result = await client.callTool({ name: "sample__add", arguments: { a: 1, b: 1 } });
      expect(result.structuredContent).toEqual({ sum: 2 });
    }
    expect(initializes()).toBe(before);
    expect(errors.filter((error) => /unknown message ID/i.test(error))).toEqual([]);
    await Promise.all(clients.map(({ client }) => client.close()));
  }, 30_000);
});
