import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Frame, Transport } from "@patchbay/jsonrpc-core";
import { type BackendConfig, parseGatewayConfig } from "@patchbay/router";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { FallbackClientTransport, SseClientTransport } from "@patchbay/transport-sse";
import { attachWebSocketServer, WebSocketClientTransport } from "@patchbay/transport-ws";
import { afterEach, describe, expect, it } from "vitest";
import {
  BackendSignInUnsupportedError,
  createBackendTransportFactory,
} from "./backend-transport-factory.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The backend `name` of a config file's `mcpServers`. */
function backendOf(entry: Record<string, unknown>, name = "kid"): BackendConfig {
  const config = parseGatewayConfig({ mcpServers: { [name]: entry } }).config;
  return config.backends[0] as BackendConfig;
}

/** A node child that writes `stderrLine` to stderr and a JSON-RPC notification `padding` long to stdout. */
function childEntry(stderrLine: string, padding: number, extra: Record<string, unknown> = {}) {
  const script = [
    `process.stderr.write(${JSON.stringify(`${stderrLine}\n`)});`,
    `process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "note", params: { pad: "x".repeat(${padding}) } }) + "\\n");`,
    `process.stdin.resume();`,
  ].join(" ");
  return { command: process.execPath, args: ["-e", script], ...extra };
}

/** Starts `transport` and resolves with its first frame, or its first error. */
async function firstOutcome(transport: Transport): Promise<{ frame?: Frame; error?: Error }> {
  const outcome = new Promise<{ frame?: Frame; error?: Error }>((resolve) => {
    transport.onFrame((frame) => resolve({ frame }));
    transport.onError((error) => resolve({ error }));
  });
  await transport.start();
  cleanups.push(() => transport.close());
  return await outcome;
}

describe("createBackendTransportFactory", () => {
  it("starts a stdio backend and hands each stderr line to onStderr with the backend's key", async () => {
    const lines: [string, string][] = [];
    let heard!: () => void;
    const stderrSeen = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const connect = createBackendTransportFactory({
      onStderr: (backend, line) => {
        lines.push([backend, line]);
        heard();
      },
    });
    const transport = await connect(backendOf(childEntry("warming up", 10)));
    expect((await firstOutcome(transport)).frame).toMatchObject({ method: "note" });
    await stderrSeen;
    expect(lines).toEqual([["kid", "warming up"]]);
  });

  it("reads stdio lines up to maxLineBytes, and a backend's own maxMessageBytes wins over it", async () => {
    const small = createBackendTransportFactory({ maxLineBytes: 1_000, onStderr: () => {} });
    const overLimit = await firstOutcome(await small(backendOf(childEntry("", 5_000))));
    expect(overLimit.frame).toBeUndefined();
    expect(overLimit.error?.message).toMatch(/1000|1,000/);
    const allowed = await small(backendOf(childEntry("", 5_000, { maxMessageBytes: 10_000 })));
    expect((await firstOutcome(allowed)).frame).toMatchObject({ method: "note" });
  });

  it("picks the transport of each remote kind", async () => {
    const connect = createBackendTransportFactory();
    const url = "http://127.0.0.1:9/mcp";
    expect(await connect(backendOf({ url, transport: "http" }))).toBeInstanceOf(
      StreamableHttpClientTransport,
    );
    expect(await connect(backendOf({ url, transport: "sse" }))).toBeInstanceOf(SseClientTransport);
    expect(await connect(backendOf({ url }))).toBeInstanceOf(FallbackClientTransport);
    expect(await connect(backendOf({ url: "ws://127.0.0.1:9/mcp" }))).toBeInstanceOf(
      WebSocketClientTransport,
    );
  });

  it("reaches a ws:// backend over WebSocket, with the config's headers on the handshake", {
    timeout: 10_000,
  }, async () => {
    const server: Server = createServer();
    const received: { frame: Frame; authorization: string | undefined }[] = [];
    let delivered!: () => void;
    const arrived = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    const sockets = attachWebSocketServer(server, {
      onConnection: async (transport, { request }) => {
        transport.onFrame((frame) => {
          received.push({ frame, authorization: request.headers.authorization });
          delivered();
        });
        await transport.start();
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      await sockets.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const port = (server.address() as AddressInfo).port;
    const connect = createBackendTransportFactory();
    const transport = await connect(
      backendOf({ url: `ws://127.0.0.1:${port}/mcp`, headers: { Authorization: "Bearer t" } }),
    );
    await transport.start();
    cleanups.push(() => transport.close());
    await transport.send({ jsonrpc: "2.0", method: "hello" });
    await arrived;
    expect(received).toEqual([
      { frame: { jsonrpc: "2.0", method: "hello" }, authorization: "Bearer t" },
    ]);
  });

  it("refuses a backend with an oauth block when it was made without oauth (never reached without its token)", async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const connect = createBackendTransportFactory();
    // No `transport` key: auto (Streamable HTTP, falling back to HTTP+SSE).
    for (const transport of [{ transport: "http" }, { transport: "sse" }, {}]) {
      const backend = backendOf({
        url: `http://127.0.0.1:${port}/mcp`,
        ...transport,
        oauth: { clientId: "patchbay" },
      });
      await expect(Promise.resolve().then(() => connect(backend))).rejects.toThrow(
        BackendSignInUnsupportedError,
      );
    }
    expect(requests).toBe(0);
  });
});
