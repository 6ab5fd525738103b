import type { JSONRPCMessage, TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import type { ModernMessageHandler } from "./modern-http-request.js";
import type { StreamableHttpServerTransport } from "./streamable-http-server-transport.js";
import {
  answerRequests,
  initializeRequest,
  POST_ACCEPT,
  parseSse,
  sseMessages,
} from "./test-support/http-fixtures.js";
import {
  createWebStreamableHttpHandler,
  type WebStreamableHttpHandler,
  type WebStreamableHttpHandlerOptions,
} from "./web-streamable-http-handler.js";

const URL_ = "http://localhost/mcp";
let handler: WebStreamableHttpHandler | undefined;
afterEach(async () => {
  await handler?.close();
  handler = undefined;
});

function start(options: Partial<WebStreamableHttpHandlerOptions> = {}) {
  const transports: StreamableHttpServerTransport[] = [];
  handler = createWebStreamableHttpHandler({
    keepAliveIntervalMs: 0,
    onSession: async (transport) => {
      transports.push(transport);
      answerRequests(transport);
      await transport.start();
    },
    ...options,
  });
  return { handler, transports };
}

function postRequest(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(URL_, {
    method: "POST",
    headers: { accept: POST_ACCEPT, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function openSession(web: WebStreamableHttpHandler): Promise<string> {
  const answer = await web.handleRequest(postRequest(initializeRequest(0)));
  await answer.text();
  const sessionId = answer.headers.get("mcp-session-id") ?? "";
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  expect((await web.handleRequest(postRequest(initialized, headers))).status).toBe(202);
  return sessionId;
}

function getStream(sessionId: string, extra: Record<string, string> = {}, signal?: AbortSignal) {
  return new Request(URL_, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
      ...extra,
    },
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Reads SSE events off a web body one at a time. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    async next() {
      for (;;) {
        const end = buffered.indexOf("\n\n");
        if (end !== -1) {
          const [event] = parseSse(buffered.slice(0, end + 2));
          buffered = buffered.slice(end + 2);
          if (event !== undefined) return event;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffered += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe("the web-standard handler, called with Request objects (no socket)", () => {
  it("answers a POST in JSON mode with a whole JSON body and the session header", async () => {
    const { handler: web } = start({ responseMode: "json" });
    const answer = await web.handleRequest(postRequest(initializeRequest(7)));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await answer.json()).toMatchObject({ id: 7, result: { serverInfo: { name: "test" } } });
    expect(web.sessionCount).toBe(1);
  });

  it.each(["auto", "sse"] as const)(
    "answers a request in %s mode with the response whole, large multi-byte text included",
    async (responseMode) => {
      const { handler: web } = start({ responseMode });
      const sessionId = await openSession(web);
      const text = "é😀 abc ".repeat(40_000);
      const answer = await web.handleRequest(
        postRequest(
          { jsonrpc: "2.0", id: 4, method: "big", params: { text } },
          { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
        ),
      );
      const body = await answer.text();
      const json = responseMode === "auto";
      expect(answer.headers.get("content-type")).toBe(
        json ? "application/json" : "text/event-stream",
      );
      if (json) expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
      const [message] = (json ? [JSON.parse(body)] : sseMessages(body)) as {
        result: { params: { text: string } };
      }[];
      expect(message?.result.params.text === text).toBe(true);
    },
  );

  it("answers a POST in SSE mode with a text/event-stream body carrying the response", async () => {
    const { handler: web } = start({ responseMode: "sse" });
    const answer = await web.handleRequest(postRequest(initializeRequest(1)));
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(answer.headers.get("connection")).toBeNull();
    expect(sseMessages(await answer.text())).toMatchObject([{ id: 1, result: {} }]);
  });

  it("refuses a foreign Host, a foreign Origin and an over-limit body as node:http does", async () => {
    const { handler: web } = start({ maxBodyBytes: 1000 });
    const foreignHost = new Request("http://evil.example/mcp", {
      method: "POST",
      headers: { accept: POST_ACCEPT, "content-type": "application/json" },
      body: JSON.stringify(initializeRequest(1)),
    });
    expect((await web.handleRequest(foreignHost)).status).toBe(403);
    const foreignOrigin = postRequest(initializeRequest(1), { origin: "http://evil.example" });
    expect((await web.handleRequest(foreignOrigin)).status).toBe(403);
    const large = await web.handleRequest(postRequest(" ".repeat(5000)));
    expect(large.status).toBe(413);
    expect(await large.text()).toContain("limit of 1000 bytes");
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 4; index++) controller.enqueue(new Uint8Array(400).fill(32));
        controller.close();
      },
    });
    const streamed = new Request(URL_, {
      method: "POST",
      headers: { accept: POST_ACCEPT, "content-type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    expect((await web.handleRequest(streamed)).status).toBe(413);
  });

  it("hands authenticate the web Request and binds the session to its identity", async () => {
    const seen: Request[] = [];
    const { handler: web } = start({
      authenticate: (request) => {
        seen.push(request);
        const token = request.headers.get("authorization");
        return token === null
          ? { ok: false, wwwAuthenticate: 'Bearer realm="mcp"' }
          : { ok: true, info: token };
      },
    });
    const refused = await web.handleRequest(postRequest(initializeRequest(1)));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    const alice = { authorization: "Bearer alice" };
    const answer = await web.handleRequest(postRequest(initializeRequest(1), alice));
    await answer.text();
    expect(seen[1]).toBeInstanceOf(Request);
    const sessionId = answer.headers.get("mcp-session-id") ?? "";
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const asBob = { "mcp-session-id": sessionId, authorization: "Bearer bob" };
    expect((await web.handleRequest(postRequest(ping, asBob))).status).toBe(404);
    const asAlice = { "mcp-session-id": sessionId, ...alice };
    expect((await web.handleRequest(postRequest(ping, asAlice))).status).toBe(200);
  });

  it("ends a session on DELETE; later requests naming it get 404", async () => {
    const { handler: web } = start();
    const sessionId = await openSession(web);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    const deleted = await web.handleRequest(new Request(URL_, { method: "DELETE", headers }));
    expect(deleted.status).toBe(200);
    expect(web.sessionCount).toBe(0);
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    expect((await web.handleRequest(postRequest(ping, headers))).status).toBe(404);
  });
});

describe("web SSE streams", () => {
  it("notice a client that cancels its body: the GET stream closes and can be opened again", async () => {
    const { handler: web } = start();
    const sessionId = await openSession(web);
    const first = await web.handleRequest(getStream(sessionId));
    expect(first.status).toBe(200);
    expect((await web.handleRequest(getStream(sessionId))).status).toBe(409);
    await first.body?.cancel();
    // `close` is emitted after the cancel call returns, as node:http emits it after the socket closed.
    await Promise.resolve();
    const second = await web.handleRequest(getStream(sessionId));
    expect(second.status).toBe(200);
    await second.body?.cancel();
  });

  it("notice a request whose signal aborts (the runtime saw the client go away)", async () => {
    const { handler: web, transports } = start();
    const sessionId = await openSession(web);
    const aborter = new AbortController();
    await web.handleRequest(getStream(sessionId, {}, aborter.signal));
    expect(transports[0]?.hasStandaloneStream).toBe(true);
    aborter.abort();
    await Promise.resolve();
    expect(transports[0]?.hasStandaloneStream).toBe(false);
  });

  it("treat a request aborted before it arrived as a client already gone", async () => {
    const { handler: web, transports } = start();
    const sessionId = await openSession(web);
    const aborter = new AbortController();
    aborter.abort();
    const answer = await web.handleRequest(getStream(sessionId, {}, aborter.signal));
    expect(answer.status).toBe(200);
    await Promise.resolve();
    expect(transports[0]?.hasStandaloneStream).toBe(false);
  });

  it("resume with Last-Event-ID: the missed message is replayed, then the queued one", async () => {
    const { handler: web, transports } = start();
    const sessionId = await openSession(web);
    const first = await web.handleRequest(getStream(sessionId));
    const reader = eventReader(first.body as ReadableStream<Uint8Array>);
    const priming = await reader.next();
    expect(priming.id).toBeDefined();
    await transports[0]?.send({ jsonrpc: "2.0", method: "one" });
    expect(JSON.parse((await reader.next()).data)).toEqual({ jsonrpc: "2.0", method: "one" });
    await reader.cancel();
    await Promise.resolve();
    await transports[0]?.send({ jsonrpc: "2.0", method: "two" });
    const resumed = await web.handleRequest(
      getStream(sessionId, { "last-event-id": priming.id ?? "" }),
    );
    const again = eventReader(resumed.body as ReadableStream<Uint8Array>);
    const methods = [await again.next(), await again.next()].map(
      (event) => (JSON.parse(event.data) as { method: string }).method,
    );
    expect(methods).toEqual(["one", "two"]);
    await again.cancel();
  });

  it("are pull-driven: a client that never reads ends its session past maxSseBufferBytes", async () => {
    const limit = 64 * 1024;
    const { handler: web, transports } = start({ maxSseBufferBytes: limit });
    const sessionId = await openSession(web);
    const stream = await web.handleRequest(getStream(sessionId));
    expect(stream.status).toBe(200);
    const transport = transports[0] as StreamableHttpServerTransport;
    const closed = new Promise<TransportCloseEvent>((resolve) => transport.onClose(resolve));
    const payload = "x".repeat(16 * 1024);
    let sent = 0;
    // Without backpressure every message would be queued in the body; bounded at 1000 here.
    for (; sent < 1000 && !transport.closed; sent++) {
      const message: JSONRPCMessage = { jsonrpc: "2.0", method: "big", params: { payload } };
      void transport.send(message);
      await Promise.resolve();
    }
    const event = await closed;
    expect(event.details).toEqual({ reason: "sse-client-not-reading" });
    expect(event.error?.message).toContain(`limit of ${limit} bytes (maxSseBufferBytes)`);
    // The body's queue (16 KiB high-water mark) and the limit bound what was taken in.
    expect(sent * payload.length).toBeLessThan(limit + 4 * payload.length);
    expect(web.sessionCount).toBe(0);
    await expect(stream.text()).rejects.toThrow();
  });
});

describe("the modern (2026-07-28) path through the web handler", () => {
  const MODERN = "2026-07-28";
  const request = (method: string) => ({
    jsonrpc: "2.0",
    id: 5,
    method,
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } },
  });
  /** Notifies first; `tools/call` then waits until the request is aborted. */
  const modernHandler = (aborted: (reason: unknown) => void): ModernMessageHandler => ({
    protocolVersions: [MODERN],
    async handle(message, context) {
      if (!("id" in message)) return undefined;
      context.notify("notifications/message", { level: "info", data: "working" });
      if (message.method === "tools/call") {
        await new Promise<void>((resolve) =>
          context.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
        aborted(context.signal.reason);
      }
      return { jsonrpc: "2.0", id: message.id, result: { method: message.method } };
    },
  });

  it("streams a related notification, then the response; header mismatches get -32020", async () => {
    const { handler: web } = start({ modern: modernHandler(() => {}) });
    const answer = await web.handleRequest(
      postRequest(request("tools/list"), {
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/list",
      }),
    );
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(sseMessages(await answer.text())).toMatchObject([
      { method: "notifications/message" },
      { id: 5, result: { method: "tools/list" } },
    ]);
    const mismatch = await web.handleRequest(
      postRequest(request("tools/list"), {
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
      }),
    );
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ error: { code: -32020 } });
  });

  it("aborts the handler's signal when the client cancels the response stream", async () => {
    let aborted: (reason: unknown) => void = () => {};
    const reason = new Promise<unknown>((resolve) => {
      aborted = resolve;
    });
    const { handler: web } = start({ modern: modernHandler(aborted) });
    const call = { ...request("tools/call"), params: { ...request("x").params, name: "slow" } };
    const answer = await web.handleRequest(
      postRequest(call, {
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "slow",
      }),
    );
    const reader = eventReader(answer.body as ReadableStream<Uint8Array>);
    expect(JSON.parse((await reader.next()).data)).toMatchObject({
      method: "notifications/message",
    });
    await reader.cancel();
    expect(String(await reason)).toContain("closed the response stream");
  });
});
