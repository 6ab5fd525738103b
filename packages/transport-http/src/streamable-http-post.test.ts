import { Agent, request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  answerMessages,
  initializeRequest,
  openSession,
  openSse,
  POST_ACCEPT,
  parseSse,
  post,
  rawRequest,
  sessionHeaders,
  sseMessages,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";

const ping = (id: number | string) => ({ jsonrpc: "2.0" as const, id, method: "ping" });

/** The newest revision that has batches (2025-06-18 removed them). */
const BATCH_REVISION = "2025-03-26";

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
    const { url } = await start({ responseMode: "sse" });
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
    const { url } = await start({ retryIntervalMs: 2500, responseMode: "sse" });
    const answer = await post(url, initializeRequest(1));
    const [priming] = parseSse(answer.text);
    expect(priming).toEqual({ id: expect.any(String), retry: 2500, data: "" });
  });

  it("keeps priming for a 2025-11-25 session whose request names an older revision", async () => {
    // The conformance suite's SSE-polling scenario does this: initialize at 2025-11-25, then a
    // request with MCP-Protocol-Version 2025-03-26 that still expects a priming event.
    const { url } = await start({ retryIntervalMs: 500, responseMode: "sse" });
    const sessionId = await openSession(url, "2025-11-25");
    const answer = await post(url, ping(2), sessionHeaders(sessionId, "2025-03-26"));
    expect(parseSse(answer.text)[0]).toEqual({ id: expect.any(String), retry: 500, data: "" });
  });

  it("sends no priming event to a client of a revision before 2025-11-25", async () => {
    const { url } = await start({ responseMode: "sse" });
    const answer = await post(url, initializeRequest(1, "2025-03-26"));
    const events = parseSse(answer.text);
    expect(events).toHaveLength(1); // the initialize result alone
    expect(events.every((event) => event.data !== "")).toBe(true);
  });

  it("answers requests as one JSON body in json response mode", async () => {
    const { url } = await start({ responseMode: "json" });
    const sessionId = await openSession(url);
    const answer = await post(url, ping(7), sessionHeaders(sessionId));
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
      sessionHeaders(sessionId),
    );
    expect(answer.status).toBe(202);
    expect(answer.text).toBe("");
  });

  it("answers a response (to a server request) with 202", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await post(
      url,
      { jsonrpc: "2.0", id: 5, result: {} },
      sessionHeaders(sessionId),
    );
    expect(answer.status).toBe(202);
  });

  it("answers a batch in json mode with an array of the responses", async () => {
    const { url } = await start({ responseMode: "json" });
    const sessionId = await openSession(url, BATCH_REVISION);
    const answer = await post(
      url,
      [ping(1), { jsonrpc: "2.0", method: "notifications/x" }, ping("b")],
      sessionHeaders(sessionId, BATCH_REVISION),
    );
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text) as { id: unknown }[];
    expect(body.map((message) => message.id).sort()).toEqual([1, "b"]);
  });

  it("answers a batch in sse mode with every response on the stream", async () => {
    const { url } = await start({ responseMode: "sse" });
    const sessionId = await openSession(url, BATCH_REVISION);
    const answer = await post(url, [ping(1), ping(2)], sessionHeaders(sessionId, BATCH_REVISION));
    expect(sseMessages(answer.text).map((message) => (message as { id: number }).id)).toEqual([
      1, 2,
    ]);
  });

  it("answers the invalid elements of a batch itself with -32600", async () => {
    const { url } = await start({ responseMode: "json" });
    const sessionId = await openSession(url, BATCH_REVISION);
    const answer = await post(
      url,
      `[${JSON.stringify(ping(1))}, 5]`,
      sessionHeaders(sessionId, BATCH_REVISION),
    );
    const body = JSON.parse(answer.text) as { id: unknown; error?: { code: number } }[];
    expect(body).toHaveLength(2);
    expect(body.find((message) => message.id === null)?.error?.code).toBe(-32600);
  });

  it("refuses a batch for 2025-06-18 under the by-revision policy and accepts it for 2025-03-26", async () => {
    const { url } = await start({ batches: "by-revision", responseMode: "json" });
    const modern = await openSession(url, "2025-06-18");
    expect((await post(url, [ping(1)], sessionHeaders(modern, "2025-06-18"))).status).toBe(400);
    const old = await openSession(url, "2025-03-26");
    expect((await post(url, [ping(1)], sessionHeaders(old, "2025-03-26"))).status).toBe(200);
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

  it("answers 404 with -32013 for an unknown session id", async () => {
    const { url } = await start();
    const answer = await post(url, ping(1), sessionHeaders("not-a-session"));
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32013 } });
  });

  it("answers 400 for initialize on a session that is already initialized", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    expect((await post(url, initializeRequest(3), sessionHeaders(sessionId))).status).toBe(400);
  });

  it("answers 400 naming the supported revisions for an unsupported MCP-Protocol-Version", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await post(url, ping(1), sessionHeaders(sessionId, "1999-01-01"));
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

  it("answers 413 only once an over-limit body is in, keeping the connection usable", async () => {
    const { url } = await start({ maxBodyBytes: 1000 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const send = (body: string, headers: Record<string, string>) =>
        new Promise<{ status: number; reused: boolean; text: string }>((resolve, reject) => {
          const request = httpRequest(url, { method: "POST", agent, headers });
          request.on("error", reject);
          request.on("response", (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () =>
              resolve({
                status: response.statusCode ?? 0,
                reused: request.reusedSocket,
                text: Buffer.concat(chunks).toString("utf8"),
              }),
            );
          });
          request.end(body);
        });
      const headers = { accept: POST_ACCEPT, "content-type": "application/json" };
      const large = " ".repeat(4 * 1024 * 1024);
      const declared = await send(large, { ...headers, "content-length": String(large.length) });
      expect(declared.status).toBe(413);
      const chunked = await send(large, headers);
      expect(chunked).toMatchObject({ status: 413, reused: true });
      expect(chunked.text).toContain("1000 bytes");
      // Without draining, the 413 came with `Connection: close` and the next request needed a new
      // socket (a client still sending saw EPIPE/ECONNRESET instead of the answer).
      const next = await send(JSON.stringify(initializeRequest(1)), headers);
      expect(next).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
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
      expect(answerMessages(answer)).toEqual([expect.objectContaining({ id: 9 })]);
    } finally {
      await bound.close();
    }
  });
});

describe("related messages", () => {
  it("sends the messages related to a request on that request's stream, before its response", async () => {
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
          // The sender names the request its messages belong to: the transport sends them on
          // that request's POST stream.
          const related = { relatedRequestId: message.id as number };
          void (async () => {
            await Promise.resolve();
            await transport.send(
              { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } },
              related,
            );
            await transport.send(
              { jsonrpc: "2.0", id: 99, method: "sampling/createMessage" },
              related,
            );
            await transport.send({ jsonrpc: "2.0", id: message.id as number, result: {} });
          })();
        });
        await transport.start();
      },
    });
    const sessionId = await openSession(url);
    const answer = await post(url, ping(3), sessionHeaders(sessionId));
    expect(sseMessages(answer.text)).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } },
      { jsonrpc: "2.0", id: 99, method: "sampling/createMessage" },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
  });

  it("sends another session's notification on that session's own GET stream, whatever relation it names", async () => {
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
            // While handling this request, notify every session, each related to this request (as
            // a careless server might): only this session has such a request.
            void (async () => {
              for (const id of sessionIds) {
                await handler
                  .getSession(id)
                  ?.send(
                    { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
                    { relatedRequestId: message.id as number },
                  );
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
      headers: { accept: "text/event-stream", ...sessionHeaders(first) },
    });
    await firstStream.event(0);
    const answer = await post(
      url,
      { jsonrpc: "2.0", id: 1, method: "broadcast" },
      sessionHeaders(second),
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

  it("routes a progress notification by its token even while another request is handled", async () => {
    // SSE mode: the test reads the first answer's headers before it sends the second request.
    const { url } = await start({
      responseMode: "sse",
      onSession: async (transport) => {
        transport.onFrame((frame) => {
          const message = frame as { id?: number; method?: string };
          if (message.method === "initialize") {
            void transport.send({
              jsonrpc: "2.0",
              id: message.id as number,
              result: { protocolVersion: "2025-11-25" },
            });
          } else if (message.method === "second") {
            // Inside request 2's context, report progress for request 1, then answer both.
            void (async () => {
              await transport.send({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: "first-token", progress: 1 },
              });
              await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
              await transport.send({ jsonrpc: "2.0", id: 2, result: {} });
            })();
          }
        });
        await transport.start();
      },
    });
    const sessionId = await openSession(url);
    const first = await openSse(url, {
      method: "POST",
      headers: {
        accept: POST_ACCEPT,
        "content-type": "application/json",
        ...sessionHeaders(sessionId),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "first",
        params: { _meta: { progressToken: "first-token" } },
      }),
    });
    const second = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "second" },
      sessionHeaders(sessionId),
    );
    await first.ended;
    expect(sseMessages(first.raw.join(""))).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "first-token", progress: 1 },
      },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
    expect(sseMessages(second.text)).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
  });

  it("routes progress notifications by progress token to the request that asked", async () => {
    let sendProgress: (() => Promise<void>) | undefined;
    let requestArrived = () => {};
    const arrived = new Promise<void>((resolve) => {
      requestArrived = resolve;
    });
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
            // No relation named: only the token relates it.
            sendProgress = async () => {
              await transport.send({
                jsonrpc: "2.0",
                method: "notifications/progress",
                params: { progressToken: "tok", progress: 1 },
              });
              await transport.send({ jsonrpc: "2.0", id, result: {} });
            };
            requestArrived();
          }
        });
        await transport.start();
      },
    });
    const sessionId = await openSession(url);
    // Not awaited yet: in auto mode the headers come with the first related message (the progress),
    // which is sent once the request is in.
    const opening = openSse(url, {
      method: "POST",
      headers: {
        accept: POST_ACCEPT,
        "content-type": "application/json",
        ...sessionHeaders(sessionId),
      },
      body: JSON.stringify({ ...ping(4), params: { _meta: { progressToken: "tok" } } }),
    });
    await arrived;
    setImmediate(() => void sendProgress?.());
    const stream = await opening;
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
