import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { createSseParser, type SseEvent } from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpGateway } from "../http-gateway.js";
import {
  createInMemoryClusterStore,
  type InMemoryClusterStore,
} from "../test-support/in-memory-cluster.js";
import { createInMemoryRouter } from "../test-support/in-memory-router.js";
import { serveGateway } from "../test-support/serve-gateway.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789ab";

/** A gateway replica sharing `store`, with a 1 KiB body limit; resolves with its origin. */
async function startReplica(store: InMemoryClusterStore, replicaId: string): Promise<URL> {
  const { router } = await createInMemoryRouter();
  const tokens = [
    { name: "alice", token: ALICE },
    { name: "bob", token: BOB },
  ];
  const cluster = store.replica(replicaId);
  const limits = { maxBodyBytes: 1024 };
  const gateway = createHttpGateway({ router, tokens, keepAliveIntervalMs: 0, limits, cluster });
  const served = await serveGateway(gateway, router);
  cleanups.push(served.stop);
  return served.origin;
}

/** The official SDK's legacy client: its stream on `streamAt`, every POST sent to `postTo`. */
async function connectAcross(streamAt: URL, postTo: URL) {
  const posts: string[] = [];
  const transport = new SSEClientTransport(new URL("/sse", streamAt), {
    requestInit: { headers: { authorization: `Bearer ${ALICE}` } },
    fetch: (url, init) => {
      if (init?.method !== "POST") return fetch(url, init);
      const moved = new URL(String(url));
      moved.host = postTo.host;
      posts.push(moved.href);
      return fetch(moved, init);
    },
  });
  const client = new Client({ name: "legacy", version: "1.0.0" });
  await client.connect(transport);
  cleanups.push(() => client.close());
  // The SDK keeps the endpoint to itself: the session id is in the URL of its first POST.
  const sessionId = new URL(posts[0] as string).searchParams.get("sessionId") as string;
  return { client, sessionId, posts };
}

function postMessage(origin: URL, sessionId: string, token: string, body: string, type?: string) {
  return fetch(new URL(`/messages?sessionId=${encodeURIComponent(sessionId)}`, origin), {
    method: "POST",
    headers: { "content-type": type ?? "application/json", authorization: `Bearer ${token}` },
    body,
  });
}

/** A raw legacy stream of alice's on `origin`: its events, as they come. */
async function openStream(origin: URL) {
  const controller = new AbortController();
  const response = await fetch(new URL("/sse", origin), {
    headers: { accept: "text/event-stream", authorization: `Bearer ${ALICE}` },
    signal: controller.signal,
  });
  const queue: SseEvent[] = [];
  const waiting: ((event: SseEvent) => void)[] = [];
  const parser = createSseParser({
    onEvent: (event) => (waiting.shift() ?? ((queued) => queue.push(queued)))(event),
  });
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      parser.push(decoder.decode(chunk));
    }
  })().catch(() => {});
  cleanups.push(async () => controller.abort());
  const next = () =>
    new Promise<SseEvent>((resolve) => {
      const queued = queue.shift();
      if (queued === undefined) waiting.push(resolve);
      else resolve(queued);
    });
  const endpoint = await next();
  return { sessionId: new URL(endpoint.data, origin).searchParams.get("sessionId") ?? "", next };
}

async function errorOf(answer: Response): Promise<number> {
  return ((await answer.json()) as { error: { code: number } }).error.code;
}

const ping = JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" });

describe("legacy SSE sessions across replicas", () => {
  it("forward every POST reaching a replica without the stream to the replica holding it", async () => {
    const store = createInMemoryClusterStore();
    const a = await startReplica(store, "a");
    const b = await startReplica(store, "b");
    const { client, sessionId, posts } = await connectAcross(a, b);
    expect(store.sseHolders.get(sessionId)).toEqual({
      replicaId: "a",
      owner: "alice",
      profile: "",
    });
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { n: 1 } });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ n: 1 }) }]);
    expect(posts.length).toBeGreaterThanOrEqual(4);
    expect(posts.every((url) => url.startsWith(b.origin))).toBe(true);
    await client.close();
  });

  it("refuse another token's POST, an unknown session, and one whose stream closed, with 404", async () => {
    const store = createInMemoryClusterStore();
    const a = await startReplica(store, "a");
    const b = await startReplica(store, "b");
    const { client, sessionId } = await connectAcross(a, b);
    const foreign = await postMessage(b, sessionId, BOB, ping);
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toBe(-32013);
    expect((await postMessage(b, "no-such-session", ALICE, ping)).status).toBe(404);
    const closed = new Promise<void>((resolve) => {
      client.onclose = resolve;
    });
    await client.close();
    await closed;
    // The holder deletes the record once the stream has closed there.
    await postMessage(a, sessionId, ALICE, ping);
    expect(store.sseHolders.has(sessionId)).toBe(false);
    expect((await postMessage(b, sessionId, ALICE, ping)).status).toBe(404);
  });

  it("answer 404 once the holding replica is gone", async () => {
    const store = createInMemoryClusterStore();
    const a = await startReplica(store, "a");
    const b = await startReplica(store, "b");
    const { sessionId } = await connectAcross(a, b);
    store.gone.add("a");
    expect((await postMessage(b, sessionId, ALICE, ping)).status).toBe(404);
    expect(store.sseHolders.has(sessionId)).toBe(false);
  });

  it("keep the receiving replica's limits: body size, content type, JSON-RPC", async () => {
    const store = createInMemoryClusterStore();
    const a = await startReplica(store, "a");
    const b = await startReplica(store, "b");
    const { sessionId } = await connectAcross(a, b);
    const large = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { pad: "x".repeat(2000) },
    });
    const tooLarge = await postMessage(b, sessionId, ALICE, large);
    expect(tooLarge.status).toBe(413);
    expect((await postMessage(b, sessionId, ALICE, ping, "text/plain")).status).toBe(415);
    const invalid = await postMessage(b, sessionId, ALICE, "{not json");
    expect(invalid.status).toBe(400);
    expect(await errorOf(invalid)).toBe(-32700);
    expect((await postMessage(b, sessionId, ALICE, ping)).status).toBe(202);
  });

  it("report text that is not JSON-RPC to the holder's session, whose error goes out on the stream", async () => {
    const store = createInMemoryClusterStore();
    const a = await startReplica(store, "a");
    const b = await startReplica(store, "b");
    const stream = await openStream(a);
    expect((await postMessage(b, stream.sessionId, ALICE, "{not json")).status).toBe(400);
    const event = await stream.next();
    expect(event.event).toBe("message");
    expect(JSON.parse(event.data)).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("refuse a stream with 503 while the shared store is down", async () => {
    const store = createInMemoryClusterStore();
    const a = await startReplica(store, "a");
    store.up = false;
    const answer = await fetch(new URL("/sse", a), {
      headers: { accept: "text/event-stream", authorization: `Bearer ${ALICE}` },
    });
    expect(answer.status).toBe(503);
  });
});
