import { createConnection } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startWsServer, type WsServerFixture } from "./test-support/ws-pair.js";

let fixture: WsServerFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A server that answers initialize (agreeing to the client's revision) and ping. */
async function serveHandshake(): Promise<WsServerFixture> {
  const started = await startWsServer({
    onConnection: async (transport) => {
      const connection = createConnection(transport);
      connection.handle("initialize", (params) => ({
        protocolVersion: (params as { protocolVersion: string }).protocolVersion,
        capabilities: {},
        serverInfo: { name: "batches", version: "1" },
      }));
      connection.handle("ping", () => ({}));
      await transport.start();
    },
  });
  return started;
}

/** Opens a raw socket, initializes at `version`, sends a batch of two pings; resolves the answer. */
async function batchAfterInitialize(url: string, version: string): Promise<unknown> {
  const socket = new WebSocket(url, ["mcp"]);
  const answers: unknown[] = [];
  const next = () =>
    new Promise<unknown>((resolve) => {
      const seen = answers.length;
      const check = () => {
        if (answers.length > seen) resolve(answers[seen]);
        else socket.once("message", check);
      };
      check();
    });
  socket.on("message", (data) => answers.push(JSON.parse(String(data))));
  await new Promise((resolve) => socket.once("open", resolve));
  const initialized = next();
  socket.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    }),
  );
  await initialized;
  const answered = next();
  socket.send(
    JSON.stringify([
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ]),
  );
  const answer = await answered;
  socket.close();
  return answer;
}

describe("batches over WebSocket, by the agreed revision", () => {
  it("answers a batch in a 2025-03-26 session as a batch", async () => {
    fixture = await serveHandshake();
    expect(await batchAfterInitialize(fixture.url, "2025-03-26")).toEqual([
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
  });

  it("refuses a batch in a 2025-06-18 session with -32600 naming the revision", async () => {
    fixture = await serveHandshake();
    expect(await batchAfterInitialize(fixture.url, "2025-06-18")).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request",
        data: "batches are not accepted for protocol version 2025-06-18",
      },
    });
  });
});
