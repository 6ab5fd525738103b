import type { Frame, JSONRPCMessage } from "@patchbay/jsonrpc-core";
import { TransportError } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { HttpStatusError, SessionExpiredError } from "./http-errors.js";
import {
  type FetchLike,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from "./streamable-http-client-transport.js";
import {
  initializeRequest,
  startTestServer,
  type TestServer,
  waitUntil,
} from "./test-support/http-fixtures.js";

interface SeenRequest {
  readonly method: string;
  readonly headers: Record<string, string>;
}

/** A fetch that records what the transport sent, and the statuses it got. */
function recordingFetch() {
  const requests: SeenRequest[] = [];
  const statuses: number[] = [];
  const fetchLike: FetchLike = async (input, init) => {
    const headers = Object.fromEntries(
      Object.entries((init?.headers ?? {}) as Record<string, string>).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    );
    requests.push({ method: init?.method ?? "GET", headers });
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { fetch: fetchLike, requests, statuses };
}

let server: TestServer | undefined;
const clients: StreamableHttpClientTransport[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await server?.close();
  server = undefined;
});

function createClient(options: StreamableHttpClientTransportOptions) {
  const client = new StreamableHttpClientTransport(options);
  clients.push(client);
  return client;
}

/** The frames `client` receives; `arrived(count)` resolves when the count-th one comes. */
function collectFrames(client: StreamableHttpClientTransport) {
  const checks = new Set<() => void>();
  const frames = Object.assign([] as Frame[], {
    arrived(count: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (frames.length < count) return;
          checks.delete(check);
          if (frames.length === count) resolve();
          else reject(new Error(`expected ${count} frames, got ${frames.length}`));
        };
        checks.add(check);
        check();
      });
    },
  });
  client.onFrame((frame) => {
    frames.push(frame);
    for (const check of [...checks]) check();
  });
  return frames;
}

const initialized: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/initialized" };

async function handshake(
  client: StreamableHttpClientTransport,
  frames: ReturnType<typeof collectFrames>,
) {
  await client.start();
  await client.send(initializeRequest(0));
  await frames.arrived(1);
  await client.send(initialized);
}

describe("StreamableHttpClientTransport", () => {
  it("sends Accept, Content-Type, custom and auth-hook headers, then the session id and learnt revision", async () => {
    server = await startTestServer();
    const recorder = recordingFetch();
    const client = createClient({
      url: server.url,
      fetch: recorder.fetch,
      headers: { "x-custom": "yes" },
      authHeaders: async () => ({ authorization: "Bearer fresh" }),
      standaloneStream: false,
    });
    const frames = collectFrames(client);
    await handshake(client, frames);
    const [first, second] = recorder.requests;
    expect(first?.headers).toMatchObject({
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "x-custom": "yes",
      authorization: "Bearer fresh",
    });
    expect(first?.headers["mcp-session-id"]).toBeUndefined();
    expect(second?.headers["mcp-session-id"]).toBe(client.sessionId);
    expect(second?.headers["mcp-protocol-version"]).toBe("2025-11-25");
    expect(client.sessionId).toBe(server.transports[0]?.sessionId);
  });

  it("uses a protocol version set with setProtocolVersion", async () => {
    server = await startTestServer();
    const recorder = recordingFetch();
    const client = createClient({
      url: server.url,
      fetch: recorder.fetch,
      standaloneStream: false,
    });
    client.setProtocolVersion("2025-06-18");
    await client.start();
    await client.send(initialized).catch(() => {});
    expect(recorder.requests[0]?.headers["mcp-protocol-version"]).toBe("2025-06-18");
  });

  it("receives answers sent as one JSON body", async () => {
    server = await startTestServer({ responseMode: "json" });
    const client = createClient({ url: server.url, standaloneStream: false });
    const frames = collectFrames(client);
    await handshake(client, frames);
    await client.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await frames.arrived(2);
    expect(frames[1]).toEqual({ jsonrpc: "2.0", id: 1, result: { echo: "ping" } });
  });

  it("receives answers sent as an SSE stream, and a batch answer as one batch", async () => {
    server = await startTestServer();
    const client = createClient({ url: server.url, standaloneStream: false });
    const frames = collectFrames(client);
    await handshake(client, frames);
    await client.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await frames.arrived(2);
    expect(frames[1]).toEqual({ jsonrpc: "2.0", id: 1, result: { echo: "ping" } });
  });

  it("opens the GET stream after notifications/initialized and receives server-initiated messages", async () => {
    server = await startTestServer();
    const recorder = recordingFetch();
    const client = createClient({ url: server.url, fetch: recorder.fetch });
    const frames = collectFrames(client);
    await handshake(client, frames);
    await waitUntil(() => server?.transports[0]?.hasStandaloneStream === true);
    const get = recorder.requests.find((request) => request.method === "GET");
    expect(get?.headers.accept).toBe("text/event-stream");
    await server.transports[0]?.send({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    await frames.arrived(2);
    expect(frames[1]).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  });

  it("copes with a server that answers GET with 405", async () => {
    server = await startTestServer({ standaloneStream: false });
    const recorder = recordingFetch();
    const client = createClient({ url: server.url, fetch: recorder.fetch });
    const errors: Error[] = [];
    client.onError((error) => errors.push(error));
    const frames = collectFrames(client);
    await handshake(client, frames);
    await waitUntil(() => recorder.statuses.includes(405));
    await client.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await frames.arrived(2);
    expect(errors).toEqual([]);
  });

  it("reconnects a closed GET stream after the retry advice, with Last-Event-ID, and gets what it missed", async () => {
    server = await startTestServer({ retryIntervalMs: 3000 });
    const clock = createManualClock();
    const recorder = recordingFetch();
    const client = createClient({ url: server.url, fetch: recorder.fetch, clock });
    const frames = collectFrames(client);
    await handshake(client, frames);
    const session = server.transports[0];
    await waitUntil(() => session?.hasStandaloneStream === true);
    await session?.send({ jsonrpc: "2.0", method: "notifications/one" });
    await frames.arrived(2);
    session?.closeStandaloneStream();
    await session?.send({ jsonrpc: "2.0", method: "notifications/two" });
    await waitUntil(() => clock.pendingTimers === 1);
    clock.advance(2999);
    expect(recorder.requests.filter((request) => request.method === "GET")).toHaveLength(1);
    clock.advance(1);
    await frames.arrived(3);
    expect(frames[2]).toEqual({ jsonrpc: "2.0", method: "notifications/two" });
    const gets = recorder.requests.filter((request) => request.method === "GET");
    expect(gets).toHaveLength(2);
    expect(gets[1]?.headers["last-event-id"]).toEqual(expect.any(String));
  });

  it("resumes a POST's SSE answer that ended before the response, and receives the response", async () => {
    let answerLater: (() => Promise<void>) | undefined;
    let requestArrived = () => {};
    const arrived = new Promise<void>((resolve) => {
      requestArrived = resolve;
    });
    server = await startTestServer({
      responseMode: "sse",
      retryIntervalMs: 10,
      onSession: async (transport) => {
        transport.onFrame((frame) => {
          const message = frame as { id?: number; method?: string };
          if (message.method === "initialize") {
            void transport.send({
              jsonrpc: "2.0",
              id: message.id as number,
              result: { protocolVersion: "2025-11-25" },
            });
          } else if (message.method === "slow") {
            const id = message.id as number;
            answerLater = () => transport.send({ jsonrpc: "2.0", id, result: "done" });
            requestArrived();
          }
        });
        await transport.start();
      },
    });
    const clock = createManualClock();
    const recorder = recordingFetch();
    const client = createClient({
      url: server.url,
      fetch: recorder.fetch,
      clock,
      standaloneStream: false,
    });
    const frames = collectFrames(client);
    await handshake(client, frames);
    await client.send({ jsonrpc: "2.0", id: 5, method: "slow" });
    await arrived;
    // The server drops the POST stream (2025-11-25 polling); the response comes later.
    const session = server.transports[0];
    expect(session?.closeRequestStream(5)).toBe(true);
    await answerLater?.();
    await waitUntil(() => clock.pendingTimers === 1);
    clock.advance(10);
    await frames.arrived(2);
    expect(frames[1]).toEqual({ jsonrpc: "2.0", id: 5, result: "done" });
    const resume = recorder.requests.find((request) => request.method === "GET");
    expect(resume?.headers["last-event-id"]).toEqual(expect.any(String));
  });

  it("turns a 404 on its session into a SessionExpiredError and closes as ended by the remote side", async () => {
    server = await startTestServer();
    const client = createClient({ url: server.url, standaloneStream: false });
    const frames = collectFrames(client);
    const closes: string[] = [];
    client.onClose((event) => closes.push(event.initiator));
    await handshake(client, frames);
    const sessionId = client.sessionId as string;
    await server.handler.getSession(sessionId)?.close();
    const error = await client
      .send({ jsonrpc: "2.0", id: 1, method: "ping" })
      .catch((caught: unknown) => caught);
    expect(SessionExpiredError.isInstance(error)).toBe(true);
    expect((error as SessionExpiredError).sessionId).toBe(sessionId);
    expect(TransportError.isInstance(error)).toBe(true);
    expect(closes).toEqual(["remote"]);
    expect(client.sessionId).toBeUndefined();
  });

  it("rejects with an HttpStatusError carrying the status and WWW-Authenticate", async () => {
    server = await startTestServer({
      authenticate: () => ({ ok: false, wwwAuthenticate: 'Bearer realm="mcp"' }),
    });
    const client = createClient({ url: server.url });
    await client.start();
    const error = await client.send(initializeRequest(0)).catch((caught: unknown) => caught);
    expect(HttpStatusError.isInstance(error)).toBe(true);
    expect((error as HttpStatusError).status).toBe(401);
    expect((error as HttpStatusError).wwwAuthenticate).toBe('Bearer realm="mcp"');
  });

  it("sends DELETE on close, which ends the server session", async () => {
    server = await startTestServer();
    const recorder = recordingFetch();
    const client = createClient({ url: server.url, fetch: recorder.fetch });
    const frames = collectFrames(client);
    await handshake(client, frames);
    await waitUntil(() => server?.transports[0]?.hasStandaloneStream === true);
    await client.close();
    expect(recorder.requests.at(-1)?.method).toBe("DELETE");
    expect(server.handler.sessionCount).toBe(0);
    expect(server.transports[0]?.closed).toBe(true);
  });

  it("rejects sends after close with a TransportError", async () => {
    server = await startTestServer();
    const client = createClient({ url: server.url });
    await client.start();
    await client.close();
    const error = await client.send(initialized).catch((caught: unknown) => caught);
    expect(TransportError.isInstance(error)).toBe(true);
  });
});
