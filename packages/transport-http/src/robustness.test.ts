import { createConnection } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { StreamableHttpClientTransport } from "./streamable-http-client-transport.js";
import { createStreamableHttpServer, type StreamableHttpServer } from "./streamable-http-server.js";
import {
  initializeRequest,
  openSession,
  openSse,
  POST_ACCEPT,
  post,
  rawRequest,
} from "./test-support/http-fixtures.js";

let server: StreamableHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A server whose sessions run a Connection answering `echo` and a `slow` method held open. In the
 * default `auto` mode a POST's answer turns into an SSE stream once it has been pending for
 * `keepAliveIntervalMs` (default 15 s).
 */
async function startConnectionServer(keepAliveIntervalMs?: number) {
  const release: (() => void)[] = [];
  let slowArrived = () => {};
  const slowStarted = new Promise<void>((resolve) => {
    slowArrived = resolve;
  });
  server = await createStreamableHttpServer({
    ...(keepAliveIntervalMs === undefined ? {} : { keepAliveIntervalMs }),
    onSession: async (transport) => {
      const connection = createConnection(transport);
      connection.handle("initialize", (params) => ({
        protocolVersion: (params as { protocolVersion: string }).protocolVersion,
        capabilities: {},
        serverInfo: { name: "robust", version: "0" },
      }));
      connection.handle("echo", (params) => params);
      connection.handle(
        "slow",
        () =>
          new Promise((resolve) => {
            release.push(() => resolve({ released: true }));
            slowArrived();
          }),
      );
      await connection.start();
    },
  });
  return { server, release, slowStarted };
}

describe("a Streamable HTTP server under stress stays healthy", () => {
  it("serves 50 concurrent sessions, each with its own answers", async () => {
    const { server } = await startConnectionServer();
    const clients = Array.from(
      { length: 50 },
      () => new StreamableHttpClientTransport({ url: server.url }),
    );
    const connections = clients.map((client) => createConnection(client));
    await Promise.all(
      connections.map(async (connection, index) => {
        await connection.start();
        await connection.request("initialize", initializeRequest(0).params);
        await connection.notify("notifications/initialized");
        const answers = await Promise.all(
          [0, 1, 2].map((round) => connection.request("echo", { index, round })),
        );
        expect(answers).toEqual([0, 1, 2].map((round) => ({ index, round })));
      }),
    );
    expect(server.handler.sessionCount).toBe(50);
    expect(new Set(clients.map((client) => client.sessionId)).size).toBe(50);
    await Promise.all(connections.map((connection) => connection.close()));
    expect(server.handler.sessionCount).toBe(0);
  });

  it("keeps a session whose client opens a second GET stream (409) and carries on", async () => {
    const { server } = await startConnectionServer();
    const sessionId = await openSession(server.url.href);
    const headers = {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    };
    const first = await openSse(server.url.href, { headers });
    await first.event(0);
    const second = await rawRequest(server.url.href, { headers });
    expect(second.status).toBe(409);
    const answer = await post(
      server.url.href,
      { jsonrpc: "2.0", id: 1, method: "echo", params: { ok: 1 } },
      {
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"ok":1');
    first.abort();
  });

  it("survives a client that disconnects in the middle of an SSE answer", async () => {
    // The slow call's answer becomes an SSE stream after 100 ms pending instead of 15 s.
    const { server, release, slowStarted } = await startConnectionServer(100);
    const sessionId = await openSession(server.url.href);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    const stream = await openSse(server.url.href, {
      method: "POST",
      headers: { accept: POST_ACCEPT, "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slow" }),
    });
    await stream.event(0);
    await slowStarted;
    expect(release).toHaveLength(1);
    stream.abort();
    await stream.ended;
    // The handler finishes after the client left; the server must neither crash nor leak the session.
    release[0]?.();
    const answer = await post(
      server.url.href,
      { jsonrpc: "2.0", id: 2, method: "echo", params: { after: true } },
      headers,
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"after":true');
    const fresh = await post(server.url.href, initializeRequest(0));
    expect(fresh.status).toBe(200);
  });

  it("binds to 127.0.0.1 on a free port by default and reports the URL", async () => {
    const { server } = await startConnectionServer();
    expect(server.url.hostname).toBe("127.0.0.1");
    expect(Number(server.url.port)).toBeGreaterThan(0);
    expect(server.url.pathname).toBe("/mcp");
    const other = await rawRequest(new URL("/elsewhere", server.url).href);
    expect(other.status).toBe(404);
  });
});
