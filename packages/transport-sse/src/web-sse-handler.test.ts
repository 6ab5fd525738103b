import type { Frame, TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import type { SseServerTransport } from "./sse-server-transport.js";
import {
  createWebSseHandler,
  type WebSseHandler,
  type WebSseHandlerOptions,
} from "./web-sse-handler.js";

let handler: WebSseHandler | undefined;
afterEach(async () => {
  await handler?.close();
  handler = undefined;
});

function start(options: Partial<WebSseHandlerOptions> = {}) {
  const transports: SseServerTransport[] = [];
  const frames: Frame[] = [];
  handler = createWebSseHandler({
    keepAliveIntervalMs: 0,
    onSession: async (transport) => {
      transports.push(transport);
      transport.onFrame((frame) => frames.push(frame));
      await transport.start();
    },
    ...options,
  });
  return { handler, transports, frames };
}

/** Reads the raw SSE events (blocks of lines) of a web body one at a time. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    async next(): Promise<string> {
      for (;;) {
        const end = buffered.indexOf("\n\n");
        if (end !== -1) {
          const event = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          return event;
        }
        const { done, value } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffered += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe("the legacy SSE handler on web Request/Response", () => {
  it("opens a stream announcing the endpoint; a POST there reaches the session, its reply the stream", async () => {
    const { handler: web, transports, frames } = start();
    const opened = await web.handleRequest(new Request("http://localhost/sse"));
    expect(opened.headers.get("content-type")).toBe("text/event-stream");
    const events = eventReader(opened.body as ReadableStream<Uint8Array>);
    const endpoint = /data: (.*)/.exec(await events.next())?.[1] ?? "";
    expect(endpoint).toMatch(/^\/messages\?sessionId=/);
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const posted = await web.handleRequest(
      new Request(new URL(endpoint, "http://localhost"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ping),
      }),
    );
    expect(posted.status).toBe(202);
    expect(frames).toEqual([ping]);
    await transports[0]?.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await events.next()).toBe(`event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}`);
    await events.cancel();
  });

  it("ends the session when the client cancels the stream", async () => {
    const { handler: web, transports } = start();
    const opened = await web.handleRequest(new Request("http://localhost/sse"));
    const transport = transports[0] as SseServerTransport;
    const closed = new Promise<TransportCloseEvent>((resolve) => transport.onClose(resolve));
    await opened.body?.cancel();
    expect(await closed).toEqual({ initiator: "remote" });
    expect(web.sessionCount).toBe(0);
  });

  it("ends the session of a client that never reads once maxSseBufferBytes wait", async () => {
    const limit = 64 * 1024;
    const { handler: web, transports } = start({ maxSseBufferBytes: limit });
    const opened = await web.handleRequest(new Request("http://localhost/sse"));
    expect(opened.status).toBe(200);
    const transport = transports[0] as SseServerTransport;
    const closed = new Promise<TransportCloseEvent>((resolve) => transport.onClose(resolve));
    const payload = "x".repeat(16 * 1024);
    let sent = 0;
    for (; sent < 1000 && !transport.closed; sent++) {
      void transport.send({ jsonrpc: "2.0", method: "big", params: { payload } }).catch(() => {});
      await Promise.resolve();
    }
    const event = await closed;
    expect(event.details).toEqual({ reason: "sse-client-not-reading" });
    expect(sent * payload.length).toBeLessThan(limit + 4 * payload.length);
  });

  it("hands authenticate the web Request", async () => {
    const seen: string[] = [];
    const { handler: web } = start({
      authenticate: (request) => {
        seen.push(request.url);
        return { ok: false, wwwAuthenticate: 'Bearer realm="mcp"' };
      },
    });
    const refused = await web.handleRequest(new Request("http://localhost/sse"));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    expect(seen).toEqual(["http://localhost/sse"]);
  });
});
