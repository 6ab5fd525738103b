import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createManualClock, type ManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpGateway, type HttpGateway } from "./http-gateway.js";
import type { HttpGatewayLimits } from "./http-gateway-options.js";
import { createInMemoryRouter } from "./test-support/in-memory-router.js";

interface Harness {
  url: URL;
  clock: ManualClock;
  gateway: HttpGateway;
  nextCall: Awaited<ReturnType<typeof createInMemoryRouter>>["nextCall"];
  post(body: unknown, sessionId?: string): Promise<Response>;
  initialize(): Promise<string>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHarness(limits: HttpGatewayLimits = {}): Promise<Harness> {
  const clock = createManualClock(1_000_000);
  const { router, nextCall } = await createInMemoryRouter();
  const gateway = createHttpGateway({ router, clock, limits, keepAliveIntervalMs: 0 });
  const server: Server = createServer((request, response) => void gateway(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await gateway.close({ drainTimeoutMs: 0 });
    await router.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const post = (body: unknown, sessionId?: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
      },
      body: JSON.stringify(body),
    });
  const initialize = async () => {
    const response = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    });
    await response.text();
    const sessionId = response.headers.get("mcp-session-id") as string;
    const initialized = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      sessionId,
    );
    expect(initialized.status).toBe(202);
    return sessionId;
  };
  return { url, clock, gateway, nextCall, post, initialize };
}

/** The JSON-RPC messages of an SSE answer. */
/** The JSON-RPC messages of an answer: one JSON body, or the data of SSE events. */
async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (response.headers.get("content-type") === "application/json") return [JSON.parse(text)];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe("sessions", () => {
  it("end after sessionIdleTtlMs without activity: 404, then a fresh initialize works", async () => {
    const harness = await startHarness({ sessionIdleTtlMs: 60_000 });
    const sessionId = await harness.initialize();
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    expect((await harness.post(list, sessionId)).status).toBe(200);
    harness.clock.advance(59_000);
    expect((await harness.post(list, sessionId)).status).toBe(200);
    harness.clock.advance(60_001);
    const expired = await harness.post(list, sessionId);
    expect(expired.status).toBe(404);
    expect(harness.gateway.sessionCount).toBe(0);
    const fresh = await harness.initialize();
    expect(fresh).not.toBe(sessionId);
    expect((await harness.post(list, fresh)).status).toBe(200);
  });
});

describe("answers", () => {
  const call = (id: number, name: string, args: object, meta?: object) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
  });

  it("answers a call as one JSON body when nothing streams before its result", async () => {
    const harness = await startHarness();
    const sessionId = await harness.initialize();
    const answer = await harness.post(call(1, "echo", { text: "hi" }), sessionId);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(await answer.json()).toMatchObject({
      id: 1,
      result: { content: [{ type: "text", text: '{"text":"hi"}' }] },
    });
  });

  it("streams the answer when the backend's progress comes before the result", async () => {
    const harness = await startHarness();
    const sessionId = await harness.initialize();
    const answer = await harness.post(call(2, "report", {}, { progressToken: "p" }), sessionId);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(await messagesOf(answer)).toMatchObject([
      { method: "notifications/progress", params: { progressToken: "p", progress: 1 } },
      { id: 2, result: { content: [{ type: "text", text: "reported" }] } },
    ]);
  });

  it("replaces a response past limits.maxResponseBytes with -32012 naming the limit", async () => {
    const harness = await startHarness({ maxResponseBytes: 1_000 });
    const sessionId = await harness.initialize();
    const small = await harness.post(call(3, "echo", { text: "x".repeat(500) }), sessionId);
    expect(await small.json()).toMatchObject({ id: 3, result: {} });
    const large = await harness.post(call(4, "echo", { text: "x".repeat(1_000) }), sessionId);
    expect(await large.json()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: {
        code: -32012,
        message:
          "Response too large: the answer to this POST would exceed the limit of 1000 bytes (maxResponseBytes)",
      },
    });
  });
});

describe("request timeout", () => {
  it("answers -32001 after requestTimeoutMs and cancels the call at the backend", async () => {
    const harness = await startHarness({ requestTimeoutMs: 5_000 });
    const sessionId = await harness.initialize();
    const call = harness.nextCall();
    const answer = harness.post(
      { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "hold", arguments: {} } },
      sessionId,
    );
    await call.started;
    expect(harness.gateway.pendingRequests).toBe(1);
    harness.clock.advance(5_000);
    await call.cancelled;
    const messages = await messagesOf(await answer);
    expect(messages).toEqual([
      {
        jsonrpc: "2.0",
        id: 9,
        error: {
          code: -32001,
          message: "request timed out after 5000 ms (limits.requestTimeoutMs)",
        },
      },
    ]);
    expect(harness.gateway.pendingRequests).toBe(0);
  });
});

describe("graceful close", () => {
  it("refuses new sessions while a call in flight finishes, then ends the streams", async () => {
    const harness = await startHarness();
    const sessionId = await harness.initialize();
    const call = harness.nextCall();
    const answer = harness.post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hold", arguments: {} } },
      sessionId,
    );
    await call.started;
    const closed = harness.gateway.close({ drainTimeoutMs: 60_000 });
    const refused = await harness.post({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} });
    expect(refused.status).toBe(503);
    call.finish("done");
    const messages = await messagesOf(await answer);
    expect(messages.at(-1)).toMatchObject({
      id: 1,
      result: { content: [{ type: "text", text: "done" }] },
    });
    await closed;
    expect(harness.gateway.sessionCount).toBe(0);
  });

  it("gives up on calls still running at the drain deadline", async () => {
    const harness = await startHarness();
    const sessionId = await harness.initialize();
    const call = harness.nextCall();
    const answer = harness.post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hold", arguments: {} } },
      sessionId,
    );
    await call.started;
    const closed = harness.gateway.close({ drainTimeoutMs: 1_000 });
    harness.clock.advance(1_000);
    await closed;
    await answer.then((response) => response.text()).catch(() => undefined);
    expect(harness.gateway.sessionCount).toBe(0);
  });
});
