import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  closeSdk,
  connectSdk,
  postJson,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const ALPHA = "alpha-token-0123456789abcdef";

const proxies: TestProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.stop();
});

async function start(config: Record<string, unknown>): Promise<TestProxy> {
  const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() }, ...config });
  proxies.push(proxy);
  return proxy;
}

/** A raw WebSocket client: JSON in, each message the proxy sends read in order. */
interface RawClient {
  send(value: unknown): void;
  next(): Promise<unknown>;
  close(): Promise<void>;
}

/** Opens `/ws` with `headers`: the client once open, or the status of the refused upgrade. */
function openWs(proxy: TestProxy, headers: Record<string, string>): Promise<RawClient | number> {
  const socket = new WebSocket(proxy.at("/ws").href.replace(/^http:/, "ws:"), "mcp", { headers });
  const received: unknown[] = [];
  const waiting: ((value: unknown) => void)[] = [];
  socket.on("message", (data) => {
    const value: unknown = JSON.parse(String(data));
    const resolve = waiting.shift();
    if (resolve === undefined) received.push(value);
    else resolve(value);
  });
  socket.on("error", () => {});
  const client: RawClient = {
    send: (value) => socket.send(JSON.stringify(value)),
    next: () =>
      received.length > 0
        ? Promise.resolve(received.shift())
        : new Promise((resolve) => waiting.push(resolve)),
    async close() {
      const closed = once(socket, "close");
      socket.close();
      await closed;
    },
  };
  return new Promise((resolve) => {
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.on("open", () => resolve(client));
  });
}

/** Opens `/ws` and initializes a session at `protocolVersion` (2025-03-26 still has batches). */
async function connectWs(
  proxy: TestProxy,
  headers: Record<string, string>,
  protocolVersion = "2025-03-26",
): Promise<RawClient> {
  const client = await openWs(proxy, headers);
  if (typeof client === "number") throw new Error(`the upgrade was refused with ${client}`);
  client.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-ws", version: "1.0.0" } },
  });
  expect(await client.next()).toMatchObject({ id: 0, result: { protocolVersion } });
  client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return client;
}

const echo = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "sample__echo", arguments: { message: `m${id}` } },
});

describe("one admission for HTTP and WebSocket", () => {
  it("refuses over /ws, on open sockets and new upgrades, a token that HTTP refused with 429", async () => {
    const proxy = await start({
      auth: { tokens: [{ name: "alpha", token: ALPHA }] },
      limits: { requestsPerMinute: 10 },
      // Each client its own address, so that only the token's bucket is shared.
      http: { trustProxy: true },
    });
    const bearer = { authorization: `Bearer ${ALPHA}` };
    const socket = await connectWs(proxy, { ...bearer, "x-forwarded-for": "10.0.0.2" });
    let limited: Awaited<ReturnType<typeof postJson>> | undefined;
    for (let attempt = 0; attempt < 20 && limited === undefined; attempt++) {
      const answer = await postJson(proxy.url, echo(attempt), {
        ...bearer,
        "x-forwarded-for": "10.0.0.1",
      });
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.body).toMatchObject({ error: { code: -32015 } });

    socket.send(echo(1));
    expect(await socket.next()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32015,
        message: "rate limit of 10 requests per minute exceeded",
        data: { retryAfterSeconds: expect.any(Number) },
      },
    });
    expect(await openWs(proxy, { ...bearer, "x-forwarded-for": "10.0.0.3" })).toBe(429);
    expect(proxy.logs.join("\n")).toContain('"status":-32015');
    await socket.close();
  });

  it("charges each request of a WebSocket batch one unit, and answers those over the limit in the batch's reply", async () => {
    const proxy = await start({ limits: { requestsPerMinute: 10 } });
    // The upgrade and the initialize took two units of the address's ten.
    const socket = await connectWs(proxy, {});
    socket.send(Array.from({ length: 10 }, (_, index) => echo(index + 1)));
    const reply = (await socket.next()) as {
      id: number;
      result?: unknown;
      error?: { code: number };
    }[];
    expect(reply).toHaveLength(10);
    const refused = reply.filter((answer) => answer.error?.code === -32015);
    expect(refused.map((answer) => answer.id).sort((a, b) => a - b)).toEqual([9, 10]);
    expect(reply.filter((answer) => answer.result !== undefined)).toHaveLength(8);
    await socket.close();
  });

  it("refuses a WebSocket batch over maxBatchSize whole, with the answer HTTP gives, and runs none of it", async () => {
    const proxy = await start({});
    const batch = Array.from({ length: 2_000 }, (_, index) => echo(index + 1));
    const socket = await connectWs(proxy, {});
    socket.send(batch);
    const answer = await socket.next();
    expect(answer).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "a batch of 2000 requests exceeds the limit of 100 (limits.maxBatchSize)",
      },
    });
    expect((await postJson(proxy.url, batch)).body).toEqual(answer);
    // The connection goes on; nothing of the batch reached a backend.
    socket.send({ jsonrpc: "2.0", id: "after", method: "ping" });
    expect(await socket.next()).toEqual({ jsonrpc: "2.0", id: "after", result: {} });
    expect(proxy.logs.filter((line) => line.includes('"method":"tools/call"'))).toEqual([]);
    await socket.close();
  });

  it("counts WebSocket connections and HTTP sessions together against maxSessions", async () => {
    const proxy = await start({ limits: { maxSessions: 2 } });
    const socket = await connectWs(proxy, {});
    const http = await connectSdk(proxy.url);
    expect(proxy.proxy.gateway.sessionCount).toBe(2);
    expect(await openWs(proxy, {})).toBe(503);
    await closeSdk(http);
    await socket.close();
  });
});
