import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { TransportPair } from "@patchbay/contract-tests";
import { type Frame, fromSdkTransport, type Transport } from "@patchbay/jsonrpc-core";

/**
 * A fetch for the SDK client that keeps at most `limit` requests waiting for their response headers
 * (10,000 frames in flight are 10,000 POSTs), reports when the standalone GET stream opened, and
 * lets a test write text into that stream as if the server had.
 */
function instrumentedFetch(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  let inject: ((text: string) => Promise<void>) | undefined;
  let announceStream: () => void = () => {};
  const streamOpened = new Promise<void>((resolve) => {
    announceStream = resolve;
  });
  const limited = async (input: string | URL | Request, init?: RequestInit) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fetch(input, init);
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
  const fetchLike = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await limited(input, init);
    if ((init?.method ?? "GET") !== "GET" || !response.ok || response.body === null)
      return response;
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    inject = (text) => writer.write(encoder.encode(text));
    const body = response.body;
    void (async () => {
      for await (const chunk of body) await writer.write(chunk as Uint8Array);
      await writer.close();
    })().catch(() => {});
    announceStream();
    return new Response(readable, { status: response.status, headers: response.headers });
  };
  return {
    fetch: fetchLike,
    streamOpened,
    inject: async (text: string) => {
      if (inject === undefined) throw new Error("the client has no GET stream yet");
      // One SSE event whose data is the text (its trailing newline ends the data line).
      await inject(`event: message\ndata: ${text.trimEnd()}\n\n`);
    },
  };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    });
  });
}

/** Resolves with the first frame `transport` receives that `matches`, and stops listening. */
function nextFrame(transport: Transport, matches: (frame: Frame) => boolean): Promise<Frame> {
  return new Promise((resolve) => {
    const unsubscribe = transport.onFrame((frame) => {
      if (!matches(frame)) return;
      unsubscribe();
      resolve(frame);
    });
  });
}

const method = (frame: Frame) => (frame as { method?: string }).method;

/**
 * The SDK's StreamableHTTPClientTransport against its StreamableHTTPServerTransport (stateful, a
 * session id per pair) on 127.0.0.1, both through `fromSdkTransport`. The session is opened before
 * the suite gets the pair: initialize, its result, notifications/initialized, and the standalone GET
 * stream the server needs for messages of its own.
 */
export async function createSdkHttpPair(): Promise<TransportPair> {
  const sdkServer = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  const http = createServer((request, response) => void sdkServer.handleRequest(request, response));
  const url = await listen(http);
  const instrumented = instrumentedFetch(64);
  const sdkClient = new StreamableHTTPClientTransport(new URL(url), {
    fetch: instrumented.fetch,
    // Fast retries, so that the retry behaviour after a server close shows within a case.
    reconnectionOptions: {
      initialReconnectionDelay: 10,
      maxReconnectionDelay: 50,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 2,
    },
  });
  const server = fromSdkTransport(sdkServer);
  const client = fromSdkTransport(sdkClient);
  await server.start();
  await client.start();
  const initialize = nextFrame(server, (frame) => method(frame) === "initialize");
  const initialized = nextFrame(client, (frame) => (frame as { id?: unknown }).id === "init");
  await client.send({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "contract", version: "0" },
    },
  });
  await initialize;
  await server.send({
    jsonrpc: "2.0",
    id: "init",
    result: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "contract", version: "0" },
    },
  });
  await initialized;
  const notified = nextFrame(server, (frame) => method(frame) === "notifications/initialized");
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await Promise.all([notified, instrumented.streamOpened]);
  return {
    client,
    server,
    injectText: (side, text) => {
      if (side === "server") throw new Error("the SDK's HTTP server reads only whole POST bodies");
      return instrumented.inject(text);
    },
    dispose: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
