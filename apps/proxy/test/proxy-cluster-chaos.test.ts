import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TARGET_HEADER } from "@patchbay/cluster-redis/testing";
import { createSampleServer, type RunningListener, serveHttp } from "@patchbay/sample-backend";
import { createSseParser, type SseEvent } from "@patchbay/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProxyReplica, startTestCluster, type TestCluster } from "./cluster-harness.js";

// Three replicas on one Redis behind a round-robin balancer without affinity (a replica refusing
// connections is skipped), sharing one sample backend (served in this process, over Streamable
// HTTP); the replica running a call is killed with SIGKILL mid-call. A short heartbeat interval
// finds it gone at once; a long timeout keeps a busy replica from counting as gone (a killed one is
// found by its dropped Redis subscription, not by the timeout).
let backend: RunningListener;
let cluster: TestCluster;
beforeAll(async () => {
  backend = await serveHttp(createSampleServer(), "127.0.0.1", 0);
  cluster = await startTestCluster({
    mcpServers: { sample: { url: backend.url.href, transport: "http" } },
    limits: { requestsPerMinute: 100_000 },
    cluster: { heartbeatIntervalMs: 100, heartbeatTimeoutMs: 10_000 },
  });
  // Three replica processes and Redis: about 5 s on a quiet machine, over 20 s on a loaded one.
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
  await backend?.close();
}, 60_000);

const VERSION = "2025-11-25";
/** `ReplicaLost` on the wire (the error table in @patchbay/mcp-types; importing the gateway for it costs 1 s). */
const REPLICA_LOST_CODE = -32017;
const LONG_TASK = { name: "sample__long_task", arguments: { steps: 6, stepMs: 150 } };

/** A raw HTTP request through the balancer (or to `replica`); its SSE events, read until the end. */
async function raw(init: {
  method: "POST" | "GET";
  sessionId?: string;
  lastEventId?: string;
  body?: unknown;
  replica?: ProxyReplica;
}) {
  const url =
    init.replica === undefined ? cluster.balancer.url : new URL("/mcp", init.replica.origin);
  const response = await fetch(url, {
    method: init.method,
    headers: {
      "content-type": "application/json",
      accept: init.method === "GET" ? "text/event-stream" : "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      ...(init.sessionId === undefined ? {} : { "mcp-session-id": init.sessionId }),
      ...(init.lastEventId === undefined ? {} : { "last-event-id": init.lastEventId }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const parser = createSseParser({
    onEvent: (event) => {
      events.push(event);
      for (const wake of waiters) wake();
    },
  });
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      const body = response.body as unknown as AsyncIterable<Uint8Array> | null;
      for await (const chunk of body ?? []) {
        parser.push(decoder.decode(chunk));
      }
    } catch {
      // Broken off: its replica was killed.
    }
  })();
  return {
    response,
    target:
      init.replica ??
      (cluster.replicas[Number(response.headers.get(TARGET_HEADER))] as ProxyReplica),
    /** Resolves with the first event, once it arrived. */
    first: () =>
      new Promise<SseEvent>((resolve) => {
        const check = () => {
          if (events[0] !== undefined) resolve(events[0]);
        };
        waiters.add(check);
        check();
      }),
    /** The JSON-RPC messages of the whole answer, with their event ids, once it ended. */
    async messages() {
      await ended;
      return events
        .filter((event) => event.data !== "")
        .map((event) => ({ id: event.id, message: JSON.parse(event.data) }));
    },
  };
}

/** Opens a session with raw requests; resolves with its id. */
async function openRawSession(): Promise<string> {
  const params = {
    protocolVersion: VERSION,
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  };
  const opened = await raw({
    method: "POST",
    body: { jsonrpc: "2.0", id: 1, method: "initialize", params },
  });
  await opened.messages();
  const sessionId = opened.response.headers.get("mcp-session-id") as string;
  await (
    await raw({
      method: "POST",
      sessionId,
      body: { jsonrpc: "2.0", method: "notifications/initialized" },
    })
  ).messages();
  return sessionId;
}

/** An SDK 1.x client through the balancer; `longTaskTarget()`: the replica its long_task reached. */
async function connectSdk(name: string) {
  let target: ProxyReplica | undefined;
  const tracking: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (typeof init?.body === "string" && init.body.includes(LONG_TASK.name)) {
      target = cluster.replicas[Number(response.headers.get(TARGET_HEADER))];
    }
    return response;
  };
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(cluster.balancer.url, { fetch: tracking }),
  );
  return Object.assign(client, { longTaskTarget: () => target as ProxyReplica });
}

describe("a replica killed with SIGKILL mid-call", () => {
  it("has each call answered once (its result or -32017), and every later call on the survivors answered", async () => {
    const [sdkA, sdkB, sessionId] = await Promise.all([
      connectSdk("chaos-a"),
      connectSdk("chaos-b"),
      openRawSession(),
    ]);
    const errors: string[] = [];
    for (const client of [sdkA, sdkB]) client.onerror = (error) => errors.push(String(error));
    // Two SDK calls each, in flight when the kill comes: it waits for each long_task's first
    // progress (its answer's stream is open and resumable by then).
    const running: Promise<void>[] = [];
    const sdkCalls = Promise.allSettled(
      [sdkA, sdkB].flatMap((client) => {
        let started = () => {};
        running.push(new Promise<void>((resolve) => (started = resolve)));
        return [
          client.callTool(LONG_TASK, undefined, { timeout: 8_000, onprogress: () => started() }),
          client.callTool({ name: "sample__echo", arguments: { message: "hi" } }, undefined, {
            timeout: 8_000,
          }),
        ];
      }),
    );
    await Promise.all(running);
    // The replica running SDK client a's long_task is killed once the raw client's call runs there
    // too (sent to it directly; its stream primed).
    const victim = sdkA.longTaskTarget();
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: LONG_TASK };
    const rawCall = await raw({ method: "POST", sessionId, body: call, replica: victim });
    const priming = await rawCall.first();
    process.kill(victim.child.pid as number, "SIGKILL");
    await victim.exited;
    const survivors = cluster.replicas.filter((replica) => replica !== victim);
    const lostLine = (line: Record<string, unknown>) =>
      String(line.message).startsWith(`cluster: replica ${victim.replicaId} was lost`);
    // Each survivor notices within a heartbeat; one of them fails the calls over.
    const noticed = await Promise.all(survivors.map((replica) => replica.waitForLog(lostLine)));
    const failedOver = noticed.filter((line) => /failed over \d+ call/.test(String(line.message)));
    expect(failedOver).toHaveLength(1);
    expect(String(failedOver[0]?.message)).toContain(
      `session ${sessionId} call 7 (-32017 on its stream)`,
    );

    // The raw client resumes its broken stream on a survivor: -32017 once, then the end.
    expect((await rawCall.messages()).filter(({ message }) => message.id === 7)).toEqual([]);
    const resumed = await raw({ method: "GET", sessionId, lastEventId: priming.id as string });
    expect(resumed.target).not.toBe(victim);
    const replay = await resumed.messages();
    expect(replay.map(({ message }) => message)).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: REPLICA_LOST_CODE,
          message: `the proxy replica running this call (${victim.replicaId}) stopped before it answered; the call may have run`,
          data: { replica: victim.replicaId },
        },
      },
    ]);
    // Resuming after that answer gets nothing more (a client may resume again after an error).
    const again = await raw({ method: "GET", sessionId, lastEventId: replay[0]?.id as string });
    expect(again.response.status).toBe(200);
    expect(await again.messages()).toEqual([]);

    // Every SDK call settles: its result, or -32017 after the SDK resumed the stream by itself
    // (client a's long_task among them).
    const settled = await sdkCalls;
    expect(settled[0]?.status).toBe("rejected");
    for (const outcome of settled) {
      if (outcome.status === "rejected") {
        expect((outcome.reason as { code?: number }).code).toBe(REPLICA_LOST_CODE);
      }
    }
    // Later calls, from every client, land on the survivors and are all answered.
    const later = await Promise.all([
      ...[sdkA, sdkB].flatMap((client) =>
        [1, 2, 3].map(async (index) => {
          const result = await client.callTool(
            { name: "sample__echo", arguments: { message: `later-${index}` } },
            undefined,
            { timeout: 4_000 },
          );
          return (result.content as { text: string }[])[0]?.text;
        }),
      ),
      ...[8, 9, 10].map(async (id) => {
        const echo = { name: "sample__echo", arguments: { message: `later-${id}` } };
        const answer = await raw({
          method: "POST",
          sessionId,
          body: { jsonrpc: "2.0", id, method: "tools/call", params: echo },
        });
        const [first] = await answer.messages();
        return first?.message.result.content[0].text;
      }),
    ]);
    expect(later).toEqual([
      ...["later-1", "later-2", "later-3", "later-1", "later-2", "later-3"],
      ...["later-8", "later-9", "later-10"],
    ]);
    // No answer came twice (the SDK reports a second one as a response to an unknown id), and no
    // resume was refused: the only errors are the streams the kill broke.
    expect(errors.filter((error) => !/SSE stream disconnected/.test(error))).toEqual([]);

    // /readyz on the survivor that failed the calls over names the lost replica and the count.
    const reporter = survivors[
      noticed.indexOf(failedOver[0] as Record<string, unknown>)
    ] as ProxyReplica;
    const readyz = (await (await fetch(new URL("/readyz", reporter.origin))).json()) as {
      cluster: { lostReplicas: unknown[] };
    };
    expect(readyz.cluster.lostReplicas).toEqual([
      expect.objectContaining({ replicaId: victim.replicaId, failedOver: expect.any(Number) }),
    ]);
    // Its dashboard lists the same (the cluster panel's lost replicas).
    const snapshot = (await (
      await fetch(new URL("/dashboard/api/snapshot", reporter.origin))
    ).json()) as { cluster: { lostReplicas: unknown[] } };
    expect(snapshot.cluster.lostReplicas).toEqual(readyz.cluster.lostReplicas);
    await Promise.all([sdkA.close(), sdkB.close()]);
  }, 12_000);
});
