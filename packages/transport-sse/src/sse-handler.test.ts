import { InvalidFrameError } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  openStream,
  rawRequest,
  startTestSseServer,
  type TestSseServer,
  waitUntil,
} from "./test-support/sse-fixtures.js";

let server: TestSseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startTestSseServer>[0] = {}) {
  server = await startTestSseServer(options);
  return server;
}

async function openSession(url: string) {
  const stream = await openStream(url);
  const endpoint = await stream.event(0);
  return { stream, endpoint: new URL(endpoint.data, url).href };
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  rawRequest(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("legacy SSE handler", () => {
  it("sends the endpoint event first, with a session-bound POST URL, on an unbuffered stream", async () => {
    const { url } = await start();
    const stream = await openStream(url);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    const endpoint = await stream.event(0);
    expect(endpoint.event).toBe("endpoint");
    expect(endpoint.data).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    stream.abort();
  });

  it("answers a POSTed request with 202 and the response as a message event", async () => {
    const { url } = await start();
    const { stream, endpoint } = await openSession(url);
    const answer = await post(endpoint, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }));
    expect(answer.status).toBe(202);
    const message = await stream.event(1);
    expect(message.event).toBe("message");
    expect(JSON.parse(message.data)).toEqual({ jsonrpc: "2.0", id: 0, result: { echo: "ping" } });
    stream.abort();
  });

  it("runs prepareSession with the new id before the endpoint event names it", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let onPrepared: (sessionId: string) => void = () => {};
    const prepared = new Promise<string>((resolve) => {
      onPrepared = resolve;
    });
    let opened = false;
    const { url } = await start({
      prepareSession: async (sessionId, session) => {
        expect(session.sessionId).toBe(sessionId);
        onPrepared(sessionId);
        await gate;
      },
      onSession: async (transport) => {
        opened = true;
        await transport.start();
      },
    });
    const opening = openStream(url);
    const sessionId = await prepared;
    // The stream has not opened while the hook runs.
    expect(opened).toBe(false);
    release();
    const stream = await opening;
    const endpoint = await stream.event(0);
    expect(endpoint.data).toBe(`/messages?sessionId=${sessionId}`);
    stream.abort();
  });

  it("answers 503 and opens no session when prepareSession fails", async () => {
    const { url, server: sse } = await start({
      prepareSession: async () => {
        throw new Error("the shared store is down");
      },
    });
    const answer = await rawRequest(url, { headers: { accept: "text/event-stream" } });
    expect(answer.status).toBe(503);
    expect(answer.text).toContain("the shared store is down");
    expect(sse.handler.sessionCount).toBe(0);
  });

  it("sends keep-alive comments at the configured interval", async () => {
    const clock = createManualClock();
    const { url } = await start({ clock, keepAliveIntervalMs: 1000 });
    const { stream } = await openSession(url);
    clock.advance(2000);
    expect(await stream.rawMatches(/: keep-alive/g, 2)).toBe(2);
    stream.abort();
  });

  it("ends the session when the stream closes; its endpoint then answers 404", async () => {
    const { url, server: running, transports } = await start();
    const { stream, endpoint } = await openSession(url);
    const closes: string[] = [];
    transports[0]?.onClose((event) => closes.push(event.initiator));
    stream.abort();
    await waitUntil(() => running.handler.sessionCount === 0);
    expect(closes).toEqual(["remote"]);
    expect((await post(endpoint, '{"jsonrpc":"2.0","method":"x"}')).status).toBe(404);
  });

  it("answers 400 without sessionId and 404 for an unknown one", async () => {
    const { url } = await start();
    const base = new URL("/messages", url).href;
    expect((await post(base, "{}")).status).toBe(400);
    const unknown = await post(`${base}?sessionId=nope`, "{}");
    expect(unknown.status).toBe(404);
  });

  it("answers 415 for a POST that is not application/json", async () => {
    const { url } = await start();
    const { stream, endpoint } = await openSession(url);
    const answer = await post(endpoint, "{}", { "content-type": "text/plain" });
    expect(answer.status).toBe(415);
    stream.abort();
  });

  it("answers 413 naming the limit for a body over maxBodyBytes", async () => {
    const { url } = await start({ maxBodyBytes: 100 });
    const { stream, endpoint } = await openSession(url);
    const answer = await post(
      endpoint,
      JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "y".repeat(200) } }),
    );
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("100 bytes");
    stream.abort();
  });

  it("answers invalid JSON with 400 and reports an InvalidFrameError to the session", async () => {
    const { url, transports } = await start();
    const { stream, endpoint } = await openSession(url);
    const errors: Error[] = [];
    transports[0]?.onError((error) => errors.push(error));
    const answer = await post(endpoint, "{ nope");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(errors.map((error) => InvalidFrameError.isInstance(error))).toEqual([true]);
    stream.abort();
  });

  it("refuses a foreign Host or Origin with 403 and accepts localhost (DNS rebinding)", async () => {
    const { url } = await start();
    const evil = await rawRequest(url, {
      headers: { host: "evil.example.com", origin: "http://evil.example.com" },
    });
    expect(evil.status).toBe(403);
    const evilOrigin = await rawRequest(url, { headers: { origin: "http://evil.example.com" } });
    expect(evilOrigin.status).toBe(403);
    const port = new URL(url).port;
    const stream = await openStream(url, { origin: `http://localhost:${port}` });
    expect(stream.status).toBe(200);
    stream.abort();
  });

  it("answers 401 with WWW-Authenticate when authenticate refuses", async () => {
    const { url } = await start({
      authenticate: (request) =>
        request.headers.authorization === "Bearer ok"
          ? { ok: true }
          : { ok: false, wwwAuthenticate: "Bearer" },
    });
    const refused = await rawRequest(url);
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
    const stream = await openStream(url, { authorization: "Bearer ok" });
    expect(stream.status).toBe(200);
    stream.abort();
  });

  it("answers other methods with 405 and Allow", async () => {
    const { url } = await start();
    const answer = await rawRequest(url, { method: "PUT" });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET");
    const handlerAnswer = await rawRequest(new URL("/messages", url).href, { method: "DELETE" });
    expect(handlerAnswer.status).toBe(405);
    expect(handlerAnswer.headers.allow).toBe("POST");
  });

  it("ends every stream on close and answers later requests with 503", async () => {
    const { url, server: running } = await start();
    const { stream, endpoint } = await openSession(url);
    await running.handler.close();
    await stream.ended;
    expect(running.handler.sessionCount).toBe(0);
    expect((await running.handler.getSession("x")) === undefined).toBe(true);
    void endpoint;
  });

  it("keeps 50 concurrent sessions apart", async () => {
    const { url, server: running } = await start();
    const sessions = await Promise.all(Array.from({ length: 50 }, () => openSession(url)));
    expect(running.handler.sessionCount).toBe(50);
    await Promise.all(
      sessions.map(async ({ stream, endpoint }, index) => {
        await post(endpoint, JSON.stringify({ jsonrpc: "2.0", id: index, method: "who" }));
        expect(JSON.parse((await stream.event(1)).data)).toMatchObject({ id: index });
        stream.abort();
      }),
    );
    await waitUntil(() => running.handler.sessionCount === 0);
  });
});
