import { request as httpRequest } from "node:http";
import type { Frame, TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createNodeWebSocketClientTransport } from "./node-client.js";
import { startWsServer, type WsServerFixture } from "./test-support/ws-pair.js";

let fixture: WsServerFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

interface UpgradeAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends an upgrade request with the given headers and reads the HTTP answer of a refusal. */
function tryUpgrade(url: string, headers: Record<string, string>): Promise<UpgradeAnswer> {
  const target = new URL(url.replace("ws:", "http:"));
  return new Promise((resolve, reject) => {
    const request = httpRequest(target, {
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": Buffer.from("0123456789abcdef").toString("base64"),
        ...headers,
      },
    });
    request.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: "" });
    });
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

const mcp = { "Sec-WebSocket-Protocol": "mcp" };

function closed(transport: { onClose(listener: (event: TransportCloseEvent) => void): void }) {
  return new Promise<TransportCloseEvent>((resolve) => transport.onClose(resolve));
}

describe("the WebSocket handler", () => {
  it("upgrades a loopback request that offers the mcp subprotocol", async () => {
    fixture = await startWsServer();
    const answer = await tryUpgrade(fixture.url, mcp);
    expect(answer.status).toBe(101);
    expect(answer.headers["sec-websocket-protocol"]).toBe("mcp");
  });

  it("refuses a client that does not offer the mcp subprotocol with 400", async () => {
    fixture = await startWsServer();
    const answer = await tryUpgrade(fixture.url, {});
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.message).toContain('subprotocol "mcp"');
  });

  it("refuses a foreign Origin and a foreign Host with 403 (DNS rebinding)", async () => {
    fixture = await startWsServer();
    const origin = await tryUpgrade(fixture.url, { ...mcp, Origin: "http://evil.example.com" });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain("invalid Origin");
    const host = await tryUpgrade(fixture.url, { ...mcp, Host: "evil.example.com" });
    expect(host.status).toBe(403);
    expect(host.body).toContain("invalid Host");
    const local = await tryUpgrade(fixture.url, { ...mcp, Origin: "http://localhost:5173" });
    expect(local.status).toBe(101);
  });

  it("answers an upgrade to another path with 404", async () => {
    fixture = await startWsServer();
    const answer = await tryUpgrade(fixture.url.replace("/mcp", "/other"), mcp);
    expect(answer.status).toBe(404);
  });

  it("runs the authenticate hook: 401 with WWW-Authenticate, and the result reaches frame listeners", async () => {
    fixture = await startWsServer({
      authenticate: (request) =>
        request.headers.authorization === "Bearer good"
          ? { ok: true, info: { user: "alice" } }
          : {
              ok: false,
              wwwAuthenticate: 'Bearer realm="mcp"',
              message: "Unauthorized: bad token",
            },
    });
    const refused = await tryUpgrade(fixture.url, { ...mcp, Authorization: "Bearer bad" });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe('Bearer realm="mcp"');
    expect(refused.body).not.toContain('bad"');

    const client = createNodeWebSocketClientTransport({
      url: fixture.url,
      headers: { Authorization: "Bearer good" },
    });
    const accepted = fixture.nextConnection();
    await client.start();
    const server = await accepted;
    const frames = new Promise<unknown>((resolve) =>
      server.onFrame((_frame, info) => resolve(info.extra)),
    );
    await server.start();
    await client.send({ jsonrpc: "2.0", method: "ping" });
    expect(await frames).toEqual({ auth: { user: "alice" } });
    await client.close();
  });

  it("refuses connections over maxConnections with 503 and Retry-After", async () => {
    fixture = await startWsServer({ maxConnections: 1 });
    const first = createNodeWebSocketClientTransport({ url: fixture.url });
    await first.start();
    const answer = await tryUpgrade(fixture.url, mcp);
    expect(answer.status).toBe(503);
    expect(answer.headers["retry-after"]).toBe("5");
    expect(answer.body).toContain("maxConnections 1");
    await first.close();
  });

  it("closes with 1009 when a client sends a message over maxMessageBytes", async () => {
    fixture = await startWsServer({ maxMessageBytes: 1024 });
    const client = createNodeWebSocketClientTransport({ url: fixture.url });
    const accepted = fixture.nextConnection();
    await client.start();
    const server = await accepted;
    const serverClosed = closed(server);
    const clientClosed = closed(client);
    await client.send({ jsonrpc: "2.0", method: "x", params: { text: "a".repeat(2048) } });
    expect((await serverClosed).details).toMatchObject({ code: 1009 });
    expect((await clientClosed).details).toMatchObject({ code: 1009 });
  });

  it("disconnects a client that does not read, instead of buffering without end", async () => {
    fixture = await startWsServer({ maxBufferedBytes: 256 * 1024 });
    const raw = new WebSocket(fixture.url, ["mcp"]);
    const accepted = fixture.nextConnection();
    await new Promise((resolve) => raw.once("open", resolve));
    // The client stops reading its socket: what the server sends piles up in its buffers.
    (raw as unknown as { _socket: { pause(): void } })._socket.pause();
    const server = await accepted;
    const serverClosed = closed(server);
    const chunk: Frame = { jsonrpc: "2.0", method: "n", params: { text: "x".repeat(64 * 1024) } };
    let sent = 0;
    let failure: unknown;
    // Bounded: the kernel buffers of a loopback socket hold a few MiB at most.
    for (let index = 0; index < 2_000 && failure === undefined; index++) {
      try {
        await server.send(chunk);
        sent++;
        await new Promise((resolve) => setImmediate(resolve));
      } catch (error) {
        failure = error;
      }
    }
    expect(String(failure)).toContain("not reading");
    expect(sent).toBeGreaterThan(0);
    const event = await serverClosed;
    expect(event.initiator).toBe("error");
    expect(event.details).toMatchObject({ code: 1008 });
    raw.terminate();
  });

  it("ends a connection whose peer stops answering pings", async () => {
    fixture = await startWsServer({ pingIntervalMs: 50 });
    const raw = new WebSocket(fixture.url, ["mcp"], { autoPong: false });
    const accepted = fixture.nextConnection();
    await new Promise((resolve) => raw.once("open", resolve));
    const server = await accepted;
    const event = await closed(server);
    expect(event.initiator).toBe("error");
    expect(event.error?.message).toContain("did not answer a ping");
    raw.terminate();
  });

  it("keeps a connection whose peer answers pings", async () => {
    fixture = await startWsServer({ pingIntervalMs: 20 });
    const client = createNodeWebSocketClientTransport({ url: fixture.url });
    const accepted = fixture.nextConnection();
    await client.start();
    const server = await accepted;
    await server.start();
    const raw = fixture.rawSockets.at(-1)!;
    // Five ping rounds pass: the socket is still served.
    let pings = 0;
    await new Promise<void>((resolve) => {
      raw.on("data", () => {
        pings++;
        if (pings === 5) resolve();
      });
    });
    const frame = new Promise<Frame>((resolve) => server.onFrame(resolve));
    await client.send({ jsonrpc: "2.0", method: "still-here" });
    expect(await frame).toMatchObject({ method: "still-here" });
    await client.close();
  });

  it("reports a binary message as an invalid frame and stays open", async () => {
    fixture = await startWsServer();
    const raw = new WebSocket(fixture.url, ["mcp"]);
    const accepted = fixture.nextConnection();
    await new Promise((resolve) => raw.once("open", resolve));
    const server = await accepted;
    const error = new Promise<Error>((resolve) => server.onError(resolve));
    const frame = new Promise<Frame>((resolve) => server.onFrame(resolve));
    await server.start();
    raw.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await error).message).toContain("binary message of 3 bytes");
    raw.send(JSON.stringify({ jsonrpc: "2.0", method: "after" }));
    expect(await frame).toMatchObject({ method: "after" });
    raw.terminate();
  });

  it("closes every connection with 1001 when the handler closes, and refuses new ones", async () => {
    fixture = await startWsServer();
    const client = createNodeWebSocketClientTransport({ url: fixture.url });
    await client.start();
    const clientClosed = closed(client);
    const current = fixture;
    fixture = undefined;
    await current.close();
    const event = await clientClosed;
    expect(event.initiator).toBe("remote");
    expect(event.details).toMatchObject({ code: 1001, reason: "server shutting down" });
  });
});
