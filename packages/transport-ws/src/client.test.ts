import type { Frame, TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { listenLoopback } from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { createWebSocketClientTransport, type WebSocketConstructor } from "./client.js";
import { startWsServer, type WsServerFixture } from "./test-support/ws-pair.js";

let fixture: WsServerFixture | undefined;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// ws's WebSocket implements the standard API (addEventListener, binaryType), as browsers do.
const StandardWebSocket = WebSocket as unknown as WebSocketConstructor;

describe("the standard-WebSocket client", () => {
  it("exchanges messages with the server over the standard API", async () => {
    fixture = await startWsServer();
    const client = createWebSocketClientTransport({
      url: fixture.url,
      WebSocket: StandardWebSocket,
    });
    const accepted = fixture.nextConnection();
    await client.start();
    const server = await accepted;
    server.onFrame((frame) => {
      const request = frame as { id: number };
      void server.send({ jsonrpc: "2.0", id: request.id, result: { pong: true } });
    });
    await server.start();
    const answer = new Promise<Frame>((resolve) => client.onFrame(resolve));
    await client.send({ jsonrpc: "2.0", id: 7, method: "ping" });
    expect(await answer).toEqual({ jsonrpc: "2.0", id: 7, result: { pong: true } });
    await client.close();
  });

  it("says which global is missing when the runtime has no WebSocket", () => {
    expect(() => createWebSocketClientTransport({ url: "ws://127.0.0.1:1/mcp" })).toThrow(
      /no global WebSocket/,
    );
  });

  it("refuses a URL that is not ws: or wss:", () => {
    expect(() =>
      createWebSocketClientTransport({ url: "http://127.0.0.1/mcp", WebSocket: StandardWebSocket }),
    ).toThrow(/ws:\/\/ or wss:\/\//);
  });

  it("rejects start() and closes when nothing listens at the URL", async () => {
    const bound = await listenLoopback(() => {});
    const url = `${bound.origin.replace("http:", "ws:")}/mcp`;
    await bound.close();
    const client = createWebSocketClientTransport({ url, WebSocket: StandardWebSocket });
    const closeEvent = new Promise<TransportCloseEvent>((resolve) => client.onClose(resolve));
    await expect(client.start()).rejects.toThrow(/Cannot connect to ws:\/\/127\.0\.0\.1/);
    expect((await closeEvent).initiator).toBe("error");
  });

  it("refuses a server that does not select the mcp subprotocol", async () => {
    const bound = await listenLoopback(() => {});
    const plain = new WebSocketServer({ server: bound.server, handleProtocols: () => false });
    cleanups.push(async () => {
      plain.close();
      await bound.close();
    });
    const client = createWebSocketClientTransport({
      url: `${bound.origin.replace("http:", "ws:")}/mcp`,
      WebSocket: StandardWebSocket,
    });
    // `ws`, like browsers, fails the handshake itself when no subprotocol comes back.
    await expect(client.start()).rejects.toThrow(/Cannot connect to .*subprotocol/);
  });

  it("closes with 1009 when the server sends a message over the client's limit", async () => {
    fixture = await startWsServer();
    const client = createWebSocketClientTransport({
      url: fixture.url,
      WebSocket: StandardWebSocket,
      maxMessageBytes: 1024,
    });
    const accepted = fixture.nextConnection();
    await client.start();
    const server = await accepted;
    const clientClosed = new Promise<TransportCloseEvent>((resolve) => client.onClose(resolve));
    await server.send({ jsonrpc: "2.0", method: "big", params: { text: "b".repeat(4096) } });
    const event = await clientClosed;
    expect(event.initiator).toBe("error");
    expect(event.error?.message).toContain("over its limit (maxMessageBytes) of 1024");
    expect(event.details).toMatchObject({ code: 1009 });
  });

  it("refuses to send a message over its own limit, and stays open", async () => {
    fixture = await startWsServer();
    const client = createWebSocketClientTransport({
      url: fixture.url,
      WebSocket: StandardWebSocket,
      maxMessageBytes: 1024,
    });
    await client.start();
    await expect(
      client.send({ jsonrpc: "2.0", method: "big", params: { text: "é".repeat(600) } }),
    ).rejects.toThrow(/of 1253 bytes: the WebSocket client limit \(maxMessageBytes\) is 1024/);
    await expect(client.send({ jsonrpc: "2.0", method: "small" })).resolves.toBeUndefined();
    await client.close();
  });
});
