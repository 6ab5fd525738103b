import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  openSession,
  openSse,
  POST_ACCEPT,
  parseSse,
  post,
  rawRequest,
  sessionHeaders,
  startTestServer,
  type TestServer,
  waitUntil,
} from "./test-support/http-fixtures.js";

const ping = (id: number | string) => ({ jsonrpc: "2.0" as const, id, method: "ping" });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  server = await startTestServer(options);
  return server;
}

describe("GET", () => {
  it("opens the standalone stream that carries unrelated server messages", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
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
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId, "2025-06-18") },
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
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    await first.event(0);
    const second = await rawRequest(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    expect(second.status).toBe(409);
    await handler.getSession(sessionId)?.send({ jsonrpc: "2.0", method: "notifications/still" });
    expect(JSON.parse((await first.event(1)).data)).toMatchObject({
      method: "notifications/still",
    });
    expect((await post(url, ping(1), sessionHeaders(sessionId))).status).toBe(200);
    first.abort();
  });

  it("allows a new GET stream once the previous one was dropped", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const first = await openSse(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    await first.event(0);
    first.abort();
    await waitUntil(() => handler.getSession(sessionId)?.hasStandaloneStream === false);
    const second = await openSse(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    expect(second.status).toBe(200);
    second.abort();
  });

  it("answers 406 for a GET whose Accept lacks text/event-stream", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const answer = await rawRequest(url, {
      headers: { accept: "application/json", ...sessionHeaders(sessionId) },
    });
    expect(answer.status).toBe(406);
  });

  it("answers 405 with Allow when the standalone stream is disabled", async () => {
    const { url } = await start({ standaloneStream: false });
    const sessionId = await openSession(url);
    const answer = await rawRequest(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST, DELETE");
  });

  it("answers 400 for a GET or DELETE with an unsupported MCP-Protocol-Version", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const get = await rawRequest(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId, "1999-01-01") },
    });
    expect(get.status).toBe(400);
    expect(get.text).toContain("Unsupported protocol version: 1999-01-01");
    const deleted = await rawRequest(url, {
      method: "DELETE",
      headers: sessionHeaders(sessionId, "1999-01-01"),
    });
    expect(deleted.status).toBe(400);
    expect(handler.sessionCount).toBe(1);
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
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    await stream.event(0);
    clock.advance(4999);
    clock.advance(1);
    expect(await stream.rawMatches(/: keep-alive/g, 1)).toBe(1);
    clock.advance(10_000);
    expect(await stream.rawMatches(/: keep-alive/g, 3)).toBe(3);
    stream.abort();
  });
});

describe("resumability", () => {
  it("replays with Last-Event-ID only the messages of the stream that was broken", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const transport = handler.getSession(sessionId);
    const standalone = await openSse(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    const priming = await standalone.event(0);
    await transport?.send({ jsonrpc: "2.0", method: "notifications/one" });
    await standalone.event(1);
    standalone.abort();
    await waitUntil(() => transport?.hasStandaloneStream === false);
    // Sent while no stream is open: kept in the store, and buffered for the next stream.
    await transport?.send({ jsonrpc: "2.0", method: "notifications/two" });
    // Another stream's traffic must not be replayed on this one.
    await post(url, ping(8), sessionHeaders(sessionId));
    const resumed = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming.id as string,
        ...sessionHeaders(sessionId),
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
    let requestArrived = () => {};
    const arrived = new Promise<void>((resolve) => {
      requestArrived = resolve;
    });
    // An SSE answer from the start (in "auto" it would open after the keep-alive interval).
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
          } else if (message.id !== undefined) {
            const id = message.id;
            answer = () => transport.send({ jsonrpc: "2.0", id, result: { late: true } });
            requestArrived();
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
        ...sessionHeaders(sessionId),
      },
      body: JSON.stringify(ping(11)),
    });
    const priming = await stream.event(0);
    stream.abort();
    await arrived;
    await answer?.();
    const resumed = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming.id as string,
        ...sessionHeaders(sessionId),
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
    const { url } = await start({ responseMode: "sse" });
    const sessionId = await openSession(url);
    const primingIds: string[] = [];
    for (let index = 0; index < 120; index++) {
      const answer = await post(url, ping(index), sessionHeaders(sessionId));
      primingIds.push(parseSse(answer.text)[0]?.id as string);
    }
    const resume = async (lastEventId: string) => {
      const stream = await openSse(url, {
        headers: {
          accept: "text/event-stream",
          "last-event-id": lastEventId,
          ...sessionHeaders(sessionId),
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
    const { url } = await start({ responseMode: "sse" });
    const first = await openSession(url);
    const answer = await post(url, ping(1), sessionHeaders(first));
    const [priming] = parseSse(answer.text);
    expect(priming?.id).toEqual(expect.any(String));
    const second = await openSession(url);
    const stream = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming?.id as string,
        ...sessionHeaders(second),
      },
    });
    // An unknown id for this session opens a fresh standalone stream (priming event only).
    const event = await stream.event(0);
    expect(event.data).toBe("");
    stream.abort();
  });
});
