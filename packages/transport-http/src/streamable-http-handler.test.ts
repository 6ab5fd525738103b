import { afterEach, describe, expect, it } from "vitest";
import {
  initializeRequest,
  openSession,
  openSse,
  POST_ACCEPT,
  parseSse,
  post,
  rawRequest,
  sseMessages,
  startTestServer,
  type TestServer,
  waitUntil,
} from "./test-support/http-fixtures.js";
import { createManualClock } from "./test-support/manual-clock.js";

const ping = (id: number | string) => ({ jsonrpc: "2.0" as const, id, method: "ping" });
const headersFor = (sessionId: string, version = "2025-11-25") => ({
  "mcp-session-id": sessionId,
  "mcp-protocol-version": version,
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  server = await startTestServer(options);
  return server;
}

describe("POST", () => {
  it("answers initialize with a minted session id and the result on an SSE stream", async () => {
    const { url } = await start();
    const answer = await post(url, initializeRequest(1));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(answer.headers.get("x-accel-buffering")).toBe("no");
    expect(answer.headers.get("mcp-session-id")).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(sseMessages(answer.text)).toEqual([
      expect.objectContaining({
        id: 1,
        result: expect.objectContaining({ protocolVersion: "2025-11-25" }),
      }),
    ]);
  });

  it("mints a different session id for every initialize", async () => {
    const { url } = await start();
    const ids = await Promise.all([openSession(url), openSession(url), openSession(url)]);
    expect(new Set(ids).size).toBe(3);
  });

  it("starts an SSE answer with a priming event carrying an id and retry (2025-11-25)", async () => {
    const { url } = await start({ retryIntervalMs: 2500 });
    const answer = await post(url, initializeRequest(1));
    const [priming] = parseSse(answer.text);
    expect(priming).toEqual({ id: expect.any(String), retry: 2500, data: "" });
  });

  it("sends no priming event to a client of a revision before 2025-11-25", async () => {
    const { url } = await start();
    const answer = await post(url, initializeRequest(1, "2025-03-26"));
    expect(parseSse(answer.text).every((event) => event.data !== "")).toBe(true);
  });

  it("answers requests as one JSON body in json response mode", async () => {
    const { url } = await start({ responseMode: "json" });
    const sessionId = await openSession(url);
    const answer = await post(url, ping(7), headersFor(sessionId));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(answer.text)).toEqual({ jsonrpc: "2.0", id: 7, result: { echo: "ping" } });
  });

  it("answers a notification with 202 and no body", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/x" },
      headersFor(sessionId),
    );
    expect(answer.status).toBe(202);
    expect(answer.text).toBe("");
  });

  it("answers a response (to a server request) with 202", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await post(url, { jsonrpc: "2.0", id: 5, result: {} }, headersFor(sessionId));
    expect(answer.status).toBe(202);
  });

  it("answers a batch in json mode with an array of the responses", async () => {
    const { url } = await start({ responseMode: "json" });
    const sessionId = await openSession(url);
    const answer = await post(
      url,
      [ping(1), { jsonrpc: "2.0", method: "notifications/x" }, ping("b")],
      headersFor(sessionId),
    );
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text) as { id: unknown }[];
    expect(body.map((message) => message.id).sort()).toEqual([1, "b"]);
  });

  it("answers a batch in sse mode with every response on the stream", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await post(url, [ping(1), ping(2)], headersFor(sessionId));
    expect(sseMessages(answer.text).map((message) => (message as { id: number }).id)).toEqual([
      1, 2,
    ]);
  });

  it("answers the invalid elements of a batch itself with -32600", async () => {
    const { url } = await start({ responseMode: "json" });
    const sessionId = await openSession(url);
    const answer = await post(url, `[${JSON.stringify(ping(1))}, 5]`, headersFor(sessionId));
    const body = JSON.parse(answer.text) as { id: unknown; error?: { code: number } }[];
    expect(body).toHaveLength(2);
    expect(body.find((message) => message.id === null)?.error?.code).toBe(-32600);
  });

  it("refuses a batch for 2025-06-18 under the by-revision policy and accepts it for 2025-03-26", async () => {
    const { url } = await start({ batches: "by-revision", responseMode: "json" });
    const modern = await openSession(url, "2025-06-18");
    expect((await post(url, [ping(1)], headersFor(modern, "2025-06-18"))).status).toBe(400);
    const old = await openSession(url, "2025-03-26");
    expect((await post(url, [ping(1)], headersFor(old, "2025-03-26"))).status).toBe(200);
  });

  it("refuses initialize inside a batch with 400", async () => {
    const { url } = await start();
    expect((await post(url, [initializeRequest(1)])).status).toBe(400);
  });

  it("answers 400 with -32700 for a body that is not JSON", async () => {
    const { url } = await start();
    const answer = await post(url, "{ not json");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("answers 400 with -32600 for JSON that is not a JSON-RPC message", async () => {
    const { url } = await start();
    const answer = await post(url, '{"hello":1}');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32600 } });
  });

  it("answers 400 when a non-initialize request has no session id", async () => {
    const { url } = await start();
    const answer = await post(url, ping(1));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("Mcp-Session-Id header is required");
  });

  it("answers 404 with -32001 for an unknown session id", async () => {
    const { url } = await start();
    const answer = await post(url, ping(1), headersFor("not-a-session"));
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32001 } });
  });

  it("answers 400 for initialize on a session that is already initialized", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    expect((await post(url, initializeRequest(3), headersFor(sessionId))).status).toBe(400);
  });

  it("answers 400 naming the supported revisions for an unsupported MCP-Protocol-Version", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await post(url, ping(1), headersFor(sessionId, "1999-01-01"));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("Unsupported protocol version: 1999-01-01");
    expect(answer.text).toContain("2025-11-25");
  });

  it("assumes 2025-03-26 when a request carries no MCP-Protocol-Version", async () => {
    const { url, transports } = await start();
    const answer = await post(url, { ...initializeRequest(1), params: { capabilities: {} } });
    expect(answer.status).toBe(200);
    expect(transports[0]?.protocolVersion).toBe("2025-03-26");
  });

  it("answers 406 when Accept lacks text/event-stream or application/json", async () => {
    const { url } = await start();
    for (const accept of ["application/json", "text/event-stream", ""]) {
      const answer = await post(url, initializeRequest(1), { accept });
      expect(answer.status, accept).toBe(406);
    }
  });

  it("accepts Accept values with parameters and wildcards", async () => {
    const { url } = await start();
    const answer = await post(url, initializeRequest(1), {
      accept: "application/json;q=0.9, text/*",
    });
    expect(answer.status).toBe(200);
  });

  it("answers 415 for a Content-Type other than application/json", async () => {
    const { url } = await start();
    const answer = await post(url, initializeRequest(1), { "content-type": "text/plain" });
    expect(answer.status).toBe(415);
  });

  it("accepts application/json with a charset", async () => {
    const { url } = await start();
    const answer = await post(url, initializeRequest(1), {
      "content-type": "application/json; charset=utf-8",
    });
    expect(answer.status).toBe(200);
  });

  it("answers 413 naming the limit for a body over maxBodyBytes (declared length)", async () => {
    const { url } = await start({ maxBodyBytes: 1000 });
    const answer = await post(url, { ...initializeRequest(1), params: { pad: "x".repeat(2000) } });
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("1000 bytes");
  });

  it("answers 413 for a chunked body that grows past the limit", async () => {
    const { url } = await start({ maxBodyBytes: 1000 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 4; index++) controller.enqueue(new Uint8Array(400).fill(32));
        controller.close();
      },
    });
    const response = await fetch(url, {
      method: "POST",
      headers: { accept: POST_ACCEPT, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("1000 bytes");
  });

  it("uses a 10 MiB limit by default", async () => {
    const { url } = await start();
    const answer = await post(url, " ".repeat(10 * 1024 * 1024 + 1));
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("10485760 bytes");
  });

  it("takes a body already parsed by a framework", async () => {
    const { handler } = await start();
    const { listenLoopback } = await import("./loopback.js");
    const bound = await listenLoopback((request, response) => {
      void handler(request, response, initializeRequest(9));
    });
    try {
      const answer = await rawRequest(`${bound.origin}/mcp`, {
        method: "POST",
        headers: { accept: POST_ACCEPT, "content-type": "application/json" },
        body: "ignored",
      });
      expect(sseMessages(answer.text)).toEqual([expect.objectContaining({ id: 9 })]);
    } finally {
      await bound.close();
    }
  });
});

describe("related messages", () => {
  it("sends the notifications a request's handler emits on that request's stream, before its response", async () => {
    const { url } = await start({
      onSession: async (transport) => {
        transport.onFrame((frame) => {
          const message = frame as { id?: number; method?: string; params?: unknown };
          if (message.method === "initialize") {
            void transport.send({
              jsonrpc: "2.0",
              id: message.id as number,
              result: {
                protocolVersion: "2025-11-25",
                capabilities: {},
                serverInfo: { name: "t", version: "1" },
              },
            });
            return;
          }
          if (message.id === undefined) return;
          // Async work in the handler's context: the transport knows which POST it belongs to.
          void (async () => {
            await Promise.resolve();
            await transport.send({
              jsonrpc: "2.0",
              method: "notifications/message",
              params: { level: "info" },
            });
            await transport.send({ jsonrpc: "2.0", id: 99, method: "sampling/createMessage" });
            await transport.send({ jsonrpc: "2.0", id: message.id as number, result: {} });
          })();
        });
        await transport.start();
      },
    });
    const sessionId = await openSession(url);
    const answer = await post(url, ping(3), headersFor(sessionId));
    expect(sseMessages(answer.text)).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } },
      { jsonrpc: "2.0", id: 99, method: "sampling/createMessage" },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
  });

  it("sends another session's notification emitted during a request on that session's own GET stream", async () => {
    const { url, handler } = await start({
      onSession: async (transport) => {
        transport.onFrame((frame) => {
          const message = frame as { id?: number; method?: string };
          if (message.method === "initialize") {
            void transport.send({
              jsonrpc: "2.0",
              id: message.id as number,
              result: { protocolVersion: "2025-11-25" },
            });
          } else if (message.method === "broadcast") {
            // In this request's async context, notify every session (as list_changed does).
            void (async () => {
              for (const id of sessionIds) {
                await handler
                  .getSession(id)
                  ?.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
              }
              await transport.send({ jsonrpc: "2.0", id: message.id as number, result: {} });
            })();
          }
        });
        await transport.start();
      },
    });
    const sessionIds = [await openSession(url), await openSession(url)];
    const [first, second] = sessionIds as [string, string];
    const firstStream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(first) },
    });
    await firstStream.event(0);
    const answer = await post(
      url,
      { jsonrpc: "2.0", id: 1, method: "broadcast" },
      headersFor(second),
    );
    // The caller's own notification rides its POST stream; the other session's goes to its GET stream.
    expect(sseMessages(answer.text)).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
    expect(JSON.parse((await firstStream.event(1)).data)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    firstStream.abort();
  });

  it("routes progress notifications by progress token to the request that asked", async () => {
    let sendProgress: (() => Promise<void>) | undefined;
    const { url } = await start({
      onSession: async (transport) => {
        transport.onFrame((frame) => {
          const message = frame as { id?: number; method?: string };
          if (message.method === "initialize") {
            void transport.send({
              jsonrpc: "2.0",
              id: message.id as number,
              result: { protocolVersion: "2025-11-25" },
            });
          } else if (message.id !== undefined) {
            const id = message.id;
            // Outside the handler's async context: only the token relates it.
            sendProgress = async () => {
              await transport.send({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: "tok", progress: 1 },
              });
              await transport.send({ jsonrpc: "2.0", id, result: {} });
            };
          }
        });
        await transport.start();
      },
    });
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      method: "POST",
      headers: {
        accept: POST_ACCEPT,
        "content-type": "application/json",
        ...headersFor(sessionId),
      },
      body: JSON.stringify({ ...ping(4), params: { _meta: { progressToken: "tok" } } }),
    });
    await waitUntil(() => sendProgress !== undefined);
    setImmediate(() => void sendProgress?.());
    await stream.ended;
    expect(sseMessages(stream.raw.join(""))).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "tok", progress: 1 },
      },
      { jsonrpc: "2.0", id: 4, result: {} },
    ]);
  });
});

describe("GET", () => {
  it("opens the standalone stream that carries unrelated server messages", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    await stream.event(0); // priming
    await handler
      .getSession(sessionId)
      ?.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(JSON.parse((await stream.event(1)).data)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    stream.abort();
  });

  it("delivers server messages sent before the GET stream opened once it opens", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url, "2025-06-18");
    await handler.getSession(sessionId)?.send({ jsonrpc: "2.0", method: "notifications/early" });
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId, "2025-06-18") },
    });
    expect(JSON.parse((await stream.event(0)).data)).toMatchObject({
      method: "notifications/early",
    });
    stream.abort();
  });

  it("answers a second GET on the same session with 409 and keeps the first stream and the session", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const first = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    await first.event(0);
    const second = await rawRequest(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    expect(second.status).toBe(409);
    await handler.getSession(sessionId)?.send({ jsonrpc: "2.0", method: "notifications/still" });
    expect(JSON.parse((await first.event(1)).data)).toMatchObject({
      method: "notifications/still",
    });
    expect((await post(url, ping(1), headersFor(sessionId))).status).toBe(200);
    first.abort();
  });

  it("allows a new GET stream once the previous one was dropped", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const first = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    await first.event(0);
    first.abort();
    await waitUntil(() => handler.getSession(sessionId)?.hasStandaloneStream === false);
    const second = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    expect(second.status).toBe(200);
    second.abort();
  });

  it("answers 406 for a GET whose Accept lacks text/event-stream", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await rawRequest(url, {
      headers: { accept: "application/json", ...headersFor(sessionId) },
    });
    expect(answer.status).toBe(406);
  });

  it("answers 405 with Allow when the standalone stream is disabled", async () => {
    const { url } = await start({ standaloneStream: false });
    const sessionId = await openSession(url);
    const answer = await rawRequest(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST, DELETE");
  });

  it("answers 400 for a GET without a session id and 404 for an unknown one", async () => {
    const { url } = await start();
    expect((await rawRequest(url, { headers: { accept: "text/event-stream" } })).status).toBe(400);
    expect(
      (
        await rawRequest(url, {
          headers: { accept: "text/event-stream", "mcp-session-id": "nope" },
        })
      ).status,
    ).toBe(404);
  });

  it("sends keep-alive comments at the configured interval", async () => {
    const clock = createManualClock();
    const { url } = await start({ clock, keepAliveIntervalMs: 5000 });
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    await stream.event(0);
    clock.advance(4999);
    clock.advance(1);
    await waitUntil(() => stream.raw.join("").includes(": keep-alive"));
    expect(stream.raw.join("").match(/: keep-alive/g)).toHaveLength(1);
    clock.advance(10_000);
    await waitUntil(() => (stream.raw.join("").match(/: keep-alive/g) ?? []).length === 3);
    stream.abort();
  });
});

describe("resumability", () => {
  it("replays with Last-Event-ID only the messages of the stream that was broken", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const transport = handler.getSession(sessionId);
    const standalone = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    const priming = await standalone.event(0);
    await transport?.send({ jsonrpc: "2.0", method: "notifications/one" });
    await standalone.event(1);
    standalone.abort();
    await waitUntil(() => transport?.hasStandaloneStream === false);
    // Sent while no stream is open: kept in the store, and buffered for the next stream.
    await transport?.send({ jsonrpc: "2.0", method: "notifications/two" });
    // Another stream's traffic must not be replayed on this one.
    await post(url, ping(8), headersFor(sessionId));
    const resumed = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming.id as string,
        ...headersFor(sessionId),
      },
    });
    expect(resumed.status).toBe(200);
    const methods: string[] = [];
    for (let index = 0; index < 2; index++) {
      methods.push((JSON.parse((await resumed.event(index)).data) as { method: string }).method);
    }
    expect(methods).toEqual(["notifications/one", "notifications/two"]);
    resumed.abort();
  });

  it("resumes a POST answer that broke before its response, with the response replayed", async () => {
    let answer: (() => Promise<void>) | undefined;
    const { url } = await start({
      onSession: async (transport) => {
        transport.onFrame((frame) => {
          const message = frame as { id?: number; method?: string };
          if (message.method === "initialize") {
            void transport.send({
              jsonrpc: "2.0",
              id: message.id as number,
              result: { protocolVersion: "2025-11-25" },
            });
          } else if (message.id !== undefined) {
            const id = message.id;
            answer = () => transport.send({ jsonrpc: "2.0", id, result: { late: true } });
          }
        });
        await transport.start();
      },
    });
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      method: "POST",
      headers: {
        accept: POST_ACCEPT,
        "content-type": "application/json",
        ...headersFor(sessionId),
      },
      body: JSON.stringify(ping(11)),
    });
    const priming = await stream.event(0);
    stream.abort();
    await waitUntil(() => answer !== undefined);
    await answer?.();
    const resumed = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming.id as string,
        ...headersFor(sessionId),
      },
    });
    expect(JSON.parse((await resumed.event(0)).data)).toEqual({
      jsonrpc: "2.0",
      id: 11,
      result: { late: true },
    });
    await resumed.ended;
  });

  it("keeps only the most recent POST answers of a session resumable", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const primingIds: string[] = [];
    for (let index = 0; index < 120; index++) {
      const answer = await post(url, ping(index), headersFor(sessionId));
      primingIds.push(parseSse(answer.text)[0]?.id as string);
    }
    const resume = async (lastEventId: string) => {
      const stream = await openSse(url, {
        headers: {
          accept: "text/event-stream",
          "last-event-id": lastEventId,
          ...headersFor(sessionId),
        },
      });
      const first = await stream.event(0);
      stream.abort();
      await stream.ended;
      return first;
    };
    // A recent answer replays its response; the oldest is forgotten (a fresh GET stream primes).
    expect(JSON.parse((await resume(primingIds[119] as string)).data)).toMatchObject({ id: 119 });
    expect((await resume(primingIds[0] as string)).data).toBe("");
  });

  it("does not replay another session's stream", async () => {
    const { url } = await start();
    const first = await openSession(url);
    const answer = await post(url, ping(1), headersFor(first));
    const [priming] = parseSse(answer.text);
    const second = await openSession(url);
    const stream = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming?.id as string,
        ...headersFor(second),
      },
    });
    // An unknown id for this session opens a fresh standalone stream (priming event only).
    const event = await stream.event(0);
    expect(event.data).toBe("");
    stream.abort();
  });
});

describe("sessions", () => {
  it("ends a session on DELETE (200), after which it is 404", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const closes: string[] = [];
    handler.getSession(sessionId)?.onClose((event) => closes.push(event.initiator));
    const deleted = await rawRequest(url, { method: "DELETE", headers: headersFor(sessionId) });
    expect(deleted.status).toBe(200);
    expect(closes).toEqual(["remote"]);
    expect((await post(url, ping(1), headersFor(sessionId))).status).toBe(404);
    expect(handler.sessionCount).toBe(0);
  });

  it("expires an idle session after the TTL, which then answers 404", async () => {
    const clock = createManualClock();
    const { url, handler } = await start({ clock, sessionIdleTimeoutMs: 60_000 });
    const sessionId = await openSession(url);
    clock.advance(30_000);
    expect((await post(url, ping(1), headersFor(sessionId))).status).toBe(200);
    clock.advance(59_000);
    expect(handler.sessionCount).toBe(1);
    clock.advance(1_000);
    expect(handler.sessionCount).toBe(0);
    expect((await post(url, ping(2), headersFor(sessionId))).status).toBe(404);
  });

  it("keeps a session with an open GET stream past the TTL", async () => {
    const clock = createManualClock();
    const { url, handler } = await start({ clock, sessionIdleTimeoutMs: 1000 });
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    await stream.event(0);
    clock.advance(5000);
    expect(handler.sessionCount).toBe(1);
    stream.abort();
    await waitUntil(() => handler.getSession(sessionId)?.hasStandaloneStream === false);
    clock.advance(1000);
    expect(handler.sessionCount).toBe(0);
  });

  it("in stateless mode serves POSTs without sessions, one transport per POST, closed once answered", async () => {
    const { url, transports } = await start({ stateless: true });
    const answer = await post(url, ping(1));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    expect(sseMessages(answer.text)).toEqual([{ jsonrpc: "2.0", id: 1, result: { echo: "ping" } }]);
    await post(url, ping(2), { "mcp-session-id": "ignored" });
    expect(transports).toHaveLength(2);
    await waitUntil(() => transports.every((transport) => transport.closed));
  });

  it("in stateless mode answers GET and DELETE with 405 and Allow: POST", async () => {
    const { url } = await start({ stateless: true });
    const get = await rawRequest(url, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const deleted = await rawRequest(url, { method: "DELETE" });
    expect(deleted.status).toBe(405);
  });
});

describe("methods and security", () => {
  it("answers other methods with 405 and Allow: GET, POST, DELETE", async () => {
    const { url } = await start();
    for (const method of ["PUT", "PATCH", "OPTIONS"]) {
      const answer = await rawRequest(url, { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET, POST, DELETE");
    }
  });

  it("refuses a foreign Host and Origin with 403 and accepts localhost values (DNS rebinding)", async () => {
    const { url } = await start();
    const port = new URL(url).port;
    const evil = await post(url, initializeRequest(1), {
      host: "evil.example.com",
      origin: "http://evil.example.com",
    });
    expect(evil.status).toBe(403);
    const evilOrigin = await post(url, initializeRequest(1), { origin: "http://evil.example.com" });
    expect(evilOrigin.status).toBe(403);
    const local = await post(url, initializeRequest(1), {
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(local.status).toBe(200);
  });

  it("accepts the hosts and origins it is configured with", async () => {
    const { url } = await start({
      allowedHosts: ["mcp.example.com"],
      allowedOrigins: ["https://app.example.com"],
    });
    const ok = await post(url, initializeRequest(1), {
      host: "mcp.example.com",
      origin: "https://app.example.com",
    });
    expect(ok.status).toBe(200);
    const refused = await post(url, initializeRequest(1), {
      host: "mcp.example.com",
      origin: "http://localhost",
    });
    expect(refused.status).toBe(403);
  });

  it("answers 401 with WWW-Authenticate when authenticate refuses, and passes auth info on", async () => {
    const seen: unknown[] = [];
    const { url } = await start({
      authenticate: (request) =>
        request.headers.authorization === "Bearer good"
          ? { ok: true, info: { user: "ada" } }
          : {
              ok: false,
              wwwAuthenticate:
                'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"',
            },
      onSession: async (transport, session) => {
        seen.push(session.authInfo);
        transport.onFrame((frame, info) => {
          seen.push(info.extra?.authInfo);
          const message = frame as { id?: number };
          if (message.id !== undefined)
            void transport.send({ jsonrpc: "2.0", id: message.id, result: {} });
        });
        await transport.start();
      },
    });
    const refused = await post(url, initializeRequest(1));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("resource_metadata");
    const accepted = await post(url, initializeRequest(1), { authorization: "Bearer good" });
    expect(accepted.status).toBe(200);
    expect(seen).toEqual([{ user: "ada" }, { user: "ada" }]);
  });

  it("answers 403 when authenticate says the scope is insufficient", async () => {
    const { url } = await start({
      authenticate: () => ({
        ok: false,
        status: 403,
        wwwAuthenticate: 'Bearer error="insufficient_scope"',
      }),
    });
    const answer = await post(url, initializeRequest(1));
    expect(answer.status).toBe(403);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope"');
  });
});

describe("graceful close", () => {
  it("ends open streams, closes sessions and answers later requests with 503", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const closes: string[] = [];
    handler.getSession(sessionId)?.onClose((event) => closes.push(event.initiator));
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    await stream.event(0);
    await handler.close();
    await stream.ended;
    expect(closes).toEqual(["remote"]);
    expect(handler.sessionCount).toBe(0);
    expect((await post(url, initializeRequest(1))).status).toBe(503);
  });
});
