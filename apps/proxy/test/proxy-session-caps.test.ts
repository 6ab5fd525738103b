import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  closeSdk,
  connectSdk,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const ALPHA = "alpha-token-0123456789abcdef";
const BETA = "beta-token-0123456789abcdef";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(config: Record<string, unknown>): Promise<TestProxy> {
  const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() }, ...config });
  cleanups.push(() => proxy.stop());
  return proxy;
}

async function connect(proxy: TestProxy, token?: string) {
  const connected = await connectSdk(proxy.url, token === undefined ? {} : { token });
  cleanups.push(() => closeSdk(connected));
  return connected;
}

/** Opens a legacy SSE stream; resolves with its status once the endpoint event came (or refused). */
async function openSse(proxy: TestProxy, token: string): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const response = await fetch(proxy.at("/sse"), {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (response.status !== 200) return { status: response.status, text: await response.text() };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  cleanups.push(async () => {
    controller.abort();
    await reader.cancel().catch(() => {});
  });
  let text = "";
  while (!text.includes("event: endpoint")) {
    const { value } = await reader.read();
    text += new TextDecoder().decode(value);
  }
  return { status: 200, text };
}

/** The HTTP status of a refused WebSocket upgrade (or 101 when it opened). */
function upgradeStatus(proxy: TestProxy, token: string): Promise<number> {
  const socket = new WebSocket(proxy.at("/ws").href.replace(/^http:/, "ws:"), "mcp", {
    headers: { authorization: `Bearer ${token}` },
  });
  socket.on("error", () => {});
  return new Promise((resolve) => {
    socket.on("unexpected-response", (_request, response) => {
      response.resume();
      socket.terminate();
      resolve(response.statusCode ?? 0);
    });
    socket.on("open", () => {
      socket.terminate();
      resolve(101);
    });
  });
}

describe("limits.maxSessionsPerIdentity", () => {
  it("defaults to a tenth of maxSessions and counts a token's Streamable HTTP, SSE and WebSocket sessions together", async () => {
    const proxy = await start({
      auth: {
        tokens: [
          { name: "alpha", token: ALPHA },
          { name: "beta", token: BETA },
        ],
      },
      limits: { maxSessions: 20 },
    });
    await connect(proxy, ALPHA);
    expect((await openSse(proxy, ALPHA)).status).toBe(200);
    expect(proxy.proxy.gateway.sessionCount).toBe(2);

    expect(await upgradeStatus(proxy, ALPHA)).toBe(503);
    const sse = await openSse(proxy, ALPHA);
    expect(sse.status).toBe(503);
    expect(sse.text).toContain(
      "alpha has 2 open sessions, the limit (limits.maxSessionsPerIdentity)",
    );
    await expect(connect(proxy, ALPHA)).rejects.toThrow(/limits\.maxSessionsPerIdentity/);

    // Another token still gets its own.
    await connect(proxy, BETA);
    expect(proxy.proxy.gateway.sessionCount).toBe(3);
  }, 20_000);

  it("takes limits.maxSessionsPerIdentity from the config file", async () => {
    const proxy = await start({
      auth: { tokens: [{ name: "alpha", token: ALPHA }] },
      limits: { maxSessions: 20, maxSessionsPerIdentity: 1 },
    });
    await connect(proxy, ALPHA);
    expect(await upgradeStatus(proxy, ALPHA)).toBe(503);
  }, 20_000);

  it("leaves the anonymous identity (no auth, loopback only) capped by maxSessions alone", async () => {
    const proxy = await start({ limits: { maxSessions: 3 } });
    for (let index = 0; index < 3; index++) await connect(proxy);
    expect(proxy.proxy.gateway.sessionCount).toBe(3);
    await expect(connect(proxy)).rejects.toThrow(/maximum of 3 sessions/);
  }, 20_000);
});
