import type { Frame } from "@patchbay/jsonrpc-core";
import { TransportError } from "@patchbay/jsonrpc-core";
import { type FetchLike, HttpStatusError } from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { SseClientTransport } from "./sse-client-transport.js";
import { startTestSseServer, type TestSseServer, waitUntil } from "./test-support/sse-fixtures.js";

let server: TestSseServer | undefined;
const clients: SseClientTransport[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await server?.close();
  server = undefined;
});

function recordingFetch() {
  const requests: { method: string; url: string; headers: Record<string, string> }[] = [];
  const fetchLike: FetchLike = async (input, init) => {
    const headers = Object.fromEntries(
      Object.entries((init?.headers ?? {}) as Record<string, string>).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    );
    requests.push({ method: init?.method ?? "GET", url: String(input), headers });
    return fetch(input, init);
  };
  return { fetch: fetchLike, requests };
}

function createClient(options: ConstructorParameters<typeof SseClientTransport>[0]) {
  const client = new SseClientTransport(options);
  clients.push(client);
  return client;
}

describe("SseClientTransport", () => {
  it("starts once the endpoint is announced, sends POSTs there and receives message events", async () => {
    server = await startTestSseServer();
    const client = createClient({ url: server.url });
    const firstFrame = new Promise<Frame>((resolve) => client.onFrame(resolve));
    await client.start();
    expect(client.endpointUrl?.pathname).toBe("/messages");
    await client.send({ jsonrpc: "2.0", id: "a", method: "ping" });
    expect(await firstFrame).toEqual({ jsonrpc: "2.0", id: "a", result: { echo: "ping" } });
  });

  it("sends custom and auth-hook headers on the stream request and on every POST", async () => {
    server = await startTestSseServer({
      authenticate: (request) =>
        request.headers.authorization === "Bearer t" ? { ok: true } : { ok: false },
    });
    const recorder = recordingFetch();
    const client = createClient({
      url: server.url,
      fetch: recorder.fetch,
      headers: { "x-custom": "1" },
      authHeaders: () => ({ authorization: "Bearer t" }),
    });
    await client.start();
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(recorder.requests.map((request) => request.method)).toEqual(["GET", "POST"]);
    for (const request of recorder.requests) {
      expect(request.headers).toMatchObject({ "x-custom": "1", authorization: "Bearer t" });
    }
    expect(recorder.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("rejects start with an HttpStatusError when the stream is refused", async () => {
    server = await startTestSseServer({ authenticate: () => ({ ok: false }) });
    const client = createClient({ url: server.url });
    const error = await client.start().catch((caught: unknown) => caught);
    expect(HttpStatusError.isInstance(error)).toBe(true);
    expect((error as HttpStatusError).status).toBe(401);
  });

  it("closes as ended by the remote side when the server ends the session", async () => {
    server = await startTestSseServer();
    const client = createClient({ url: server.url });
    const closes: string[] = [];
    const closed = new Promise<void>((resolve) =>
      client.onClose((event) => {
        closes.push(event.initiator);
        resolve();
      }),
    );
    await client.start();
    await server.transports[0]?.close();
    await closed;
    expect(closes).toEqual(["remote"]);
    const error = await client
      .send({ jsonrpc: "2.0", method: "x" })
      .catch((caught: unknown) => caught);
    expect(TransportError.isInstance(error)).toBe(true);
  });

  it("ends the server session when it closes", async () => {
    server = await startTestSseServer();
    const client = createClient({ url: server.url });
    await client.start();
    expect(server.server.handler.sessionCount).toBe(1);
    await client.close();
    await waitUntil(() => server?.server.handler.sessionCount === 0);
  });

  it("refuses an endpoint on another origin", async () => {
    server = await startTestSseServer({
      onSession: async (transport) => {
        await transport.start();
      },
    });
    // A server announcing a foreign endpoint: wrap the stream's first event.
    const foreign: FetchLike = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === "POST" || response.body === null) return response;
      const body = response.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(
          new TransformStream<string, string>({
            transform(chunk, controller) {
              controller.enqueue(
                chunk.replace(/data: \/messages/, "data: http://evil.example.com/messages"),
              );
            },
          }),
        )
        .pipeThrough(new TextEncoderStream());
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = createClient({ url: server.url, fetch: foreign });
    const error = await client.start().catch((caught: unknown) => caught);
    expect(TransportError.isInstance(error)).toBe(true);
    expect(String(error)).toContain("evil.example.com");
  });
});
