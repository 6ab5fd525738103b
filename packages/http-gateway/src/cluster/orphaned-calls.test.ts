import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSseParser, type SseEvent } from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpGateway } from "../http-gateway.js";
import {
  createInMemoryClusterStore,
  type InMemoryClusterStore,
} from "../test-support/in-memory-cluster.js";
import { createInMemoryRouter, type HeldCall } from "../test-support/in-memory-router.js";
import { REPLICA_LOST_CODE } from "./orphaned-calls.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const VERSION = "2025-11-25";

/** A gateway replica on its own router (whose `hold` tool the test finishes), sharing `store`. */
async function replica(store: InMemoryClusterStore, replicaId: string) {
  const { router, nextCall } = await createInMemoryRouter();
  const gateway = createHttpGateway({
    router,
    keepAliveIntervalMs: 0,
    cluster: store.replica(replicaId),
  });
  const server: Server = createServer((request, response) => void gateway(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const aborts = new Set<AbortController>();
  cleanups.push(async () => {
    for (const abort of aborts) abort.abort();
    await gateway.close({ drainTimeoutMs: 0 });
    await router.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  return { url, nextCall, aborts };
}

type Replica = Awaited<ReturnType<typeof replica>>;

/** An SSE answer read event by event. */
async function request(
  target: Replica,
  init: { method: string; sessionId?: string; lastEventId?: string; body?: unknown },
) {
  const abort = new AbortController();
  target.aborts.add(abort);
  const response = await fetch(target.url, {
    method: init.method,
    headers: {
      "content-type": "application/json",
      accept: init.method === "GET" ? "text/event-stream" : "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      ...(init.sessionId === undefined ? {} : { "mcp-session-id": init.sessionId }),
      ...(init.lastEventId === undefined ? {} : { "last-event-id": init.lastEventId }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  let wake = () => {};
  const parser = createSseParser({
    onEvent: (event) => {
      events.push(event);
      wake();
    },
  });
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
        parser.push(decoder.decode(chunk));
      }
    } catch {
      // Aborted by the test.
    }
    wake();
  })();
  return {
    response,
    events,
    /** Resolves once `count` events arrived. */
    async first(count: number): Promise<SseEvent[]> {
      while (events.length < count) await new Promise<void>((resolve) => (wake = resolve));
      return events.slice(0, count);
    },
    /** Resolves with the JSON-RPC messages of the whole answer, once it ended. */
    async messages(): Promise<Record<string, unknown>[]> {
      await ended;
      return events
        .filter((event) => event.data !== "")
        .map((event) => JSON.parse(event.data) as Record<string, unknown>);
    },
    abort: () => abort.abort(),
  };
}

async function openSession(target: Replica): Promise<string> {
  const params = {
    protocolVersion: VERSION,
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  };
  const opened = await request(target, {
    method: "POST",
    body: { jsonrpc: "2.0", id: 0, method: "initialize", params },
  });
  const sessionId = opened.response.headers.get("mcp-session-id") as string;
  await opened.messages();
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  await request(target, { method: "POST", sessionId, body: initialized });
  return sessionId;
}

/** Starts a `hold` call on `target`; resolves with its stream's priming event id once it runs. */
async function startHeld(target: Replica, sessionId: string, id: number) {
  const held: HeldCall = target.nextCall();
  const call = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "hold", arguments: {} },
  };
  const stream = await request(target, { method: "POST", sessionId, body: call });
  const [priming] = await stream.first(1);
  await held.started;
  return { held, stream, primingId: priming?.id as string };
}

describe("a client resuming a stream whose replica is gone", () => {
  it("gets -32017 for that stream's calls only, each once, and another session's resume takes none", async () => {
    const store = createInMemoryClusterStore();
    const a = await replica(store, "a");
    const b = await replica(store, "b");
    const sessionId = await openSession(a);
    const other = await openSession(a);
    const first = await startHeld(a, sessionId, 5);
    const second = await startHeld(a, sessionId, 6);
    store.gone.add("a");
    first.stream.abort();
    second.stream.abort();
    // Another session naming this session's stream resumes nothing of it: a fresh GET stream.
    const hostile = await request(b, {
      method: "GET",
      sessionId: other,
      lastEventId: first.primingId,
    });
    expect(hostile.response.status).toBe(200);
    await hostile.first(1);
    expect(hostile.events.every((event) => event.data === "")).toBe(true);
    hostile.abort();
    const resumed = await request(b, { method: "GET", sessionId, lastEventId: first.primingId });
    expect(await resumed.messages()).toEqual([
      {
        jsonrpc: "2.0",
        id: 5,
        error: {
          code: REPLICA_LOST_CODE,
          message:
            "the proxy replica running this call (a) stopped before it answered; the call may have run",
          data: { replica: "a" },
        },
      },
    ]);
    const again = await request(b, { method: "GET", sessionId, lastEventId: second.primingId });
    expect((await again.messages()).map((message) => message.id)).toEqual([6]);
  });

  it("gets the stream's stored answer, not an error, when the answer left before the replica did", async () => {
    const store = createInMemoryClusterStore();
    const a = await replica(store, "a");
    const b = await replica(store, "b");
    const sessionId = await openSession(a);
    // The replica answers, then dies before taking the call off the list.
    store.loseEnded = true;
    const call = await startHeld(a, sessionId, 5);
    call.held.finish("done");
    await call.stream.messages();
    store.gone.add("a");
    const resumed = await request(b, { method: "GET", sessionId, lastEventId: call.primingId });
    const messages = await resumed.messages();
    expect(messages).toEqual([
      { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "done" }] } },
    ]);
    // Replayed with its own event id, as a transport would.
    expect(resumed.events[0]?.id).toBe(call.stream.events[1]?.id);
  });
});
