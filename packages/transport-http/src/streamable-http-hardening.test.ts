import type { TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { Authenticate } from "./authenticate.js";
import {
  answerRequests,
  initializeRequest,
  openSession,
  openSse,
  post,
  rawRequest,
  sseMessages,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";
import { openStalledSse } from "./test-support/stalled-sse.js";

const ping = (id: number | string) => ({ jsonrpc: "2.0" as const, id, method: "ping" });
const headersFor = (sessionId: string, version = "2025-11-25", user?: string) => ({
  "mcp-session-id": sessionId,
  "mcp-protocol-version": version,
  ...(user === undefined ? {} : { authorization: `Bearer ${user}` }),
});

/** Accepts `Bearer <user>` and says who the user is; a new `info` object on every request. */
const bearerUser: Authenticate = (request) => {
  const user = request.headers.authorization?.replace(/^Bearer /, "");
  return user === undefined ? { ok: false } : { ok: true, info: { user, scopes: ["all"] } };
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  server = await startTestServer(options);
  return server;
}

async function openSessionAs(url: string, user: string, version = "2025-11-25") {
  const answer = await post(url, initializeRequest(0, version), {
    authorization: `Bearer ${user}`,
  });
  const sessionId = answer.headers.get("mcp-session-id");
  if (answer.status !== 200 || sessionId === null) throw new Error(`initialize: ${answer.status}`);
  const initialized = { jsonrpc: "2.0" as const, method: "notifications/initialized" };
  expect((await post(url, initialized, headersFor(sessionId, version, user))).status).toBe(202);
  return sessionId;
}

describe("batches", () => {
  it("refuses a batch by default from 2025-06-18 on, with a JSON-RPC error naming the revision", async () => {
    const { url } = await start();
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const sessionId = await openSession(url, version);
      const answer = await post(url, [ping(1), ping(2)], headersFor(sessionId, version));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({
        id: null,
        error: { code: -32014, message: expect.stringContaining(version) },
      });
    }
  });

  it("accepts a batch by default for 2024-11-05 and 2025-03-26", async () => {
    const { url } = await start({ responseMode: "json" });
    for (const version of ["2024-11-05", "2025-03-26"]) {
      const sessionId = await openSession(url, version);
      const answer = await post(url, [ping(1), ping(2)], headersFor(sessionId, version));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toHaveLength(2);
    }
  });

  it("refuses a batch of more than maxBatchSize messages with 413 naming the limit, running none", async () => {
    const { url, transports } = await start({ maxBatchSize: 5 });
    const sessionId = await openSession(url, "2025-03-26");
    const delivered: unknown[] = [];
    transports[0]?.onFrame((frame) => delivered.push(frame));
    const batch = Array.from({ length: 6 }, (_, index) => ping(index));
    const answer = await post(url, batch, headersFor(sessionId, "2025-03-26"));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error.message).toContain(
      "a batch of 6 messages exceeds the limit of 5 (maxBatchSize)",
    );
    expect(delivered).toEqual([]);
  });

  it("asks admitBatch with the batch's request count, and answers its refusal for the whole POST", async () => {
    const asked: number[] = [];
    const { url, transports } = await start({
      admitBatch: (_request, requests) => {
        asked.push(requests);
        return requests > 3
          ? { status: 429, message: "too many", code: -32015, headers: { "retry-after": "7" } }
          : undefined;
      },
    });
    const sessionId = await openSession(url, "2025-03-26");
    const delivered: unknown[] = [];
    transports[0]?.onFrame((frame) => delivered.push(frame));
    const headers = headersFor(sessionId, "2025-03-26");
    const notification = { jsonrpc: "2.0" as const, method: "notifications/progress", params: {} };
    const refused = await post(url, [ping(1), ping(2), ping(3), ping(4), notification], headers);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error).toEqual({ code: -32015, message: "too many" });
    expect(delivered).toEqual([]);
    expect((await post(url, [ping(5), notification], headers)).status).toBe(200);
    // A single request is not a batch: the hook is not asked.
    await post(url, ping(6), headers);
    expect(asked).toEqual([4, 1]);
  });

  it("caps a batch at 100 messages by default", async () => {
    const { url } = await start({ responseMode: "json" });
    const sessionId = await openSession(url, "2025-03-26");
    const headers = headersFor(sessionId, "2025-03-26");
    const batch = (length: number) => Array.from({ length }, (_, index) => ping(index));
    expect((await post(url, batch(100), headers)).status).toBe(200);
    expect((await post(url, batch(101), headers)).status).toBe(413);
  });

  it("replaces the responses past maxResponseBytes of one POST with an error naming the limit", async () => {
    const { url } = await start({ responseMode: "json", maxResponseBytes: 300 });
    const sessionId = await openSession(url, "2025-03-26");
    const batch = Array.from({ length: 10 }, (_, index) => ping(index));
    const answer = await post(url, batch, headersFor(sessionId, "2025-03-26"));
    const body = JSON.parse(answer.text) as { id: number; result?: unknown; error?: unknown }[];
    expect(body).toHaveLength(10);
    const answered = body.filter((message) => message.result !== undefined);
    const refused = body.filter((message) => message.error !== undefined);
    // Each echo answer is about 60 bytes: 300 bytes hold a few, the rest are refused.
    expect(answered.length).toBeGreaterThan(0);
    const answeredBytes = answered.reduce(
      (sum, message) => sum + JSON.stringify(message).length,
      0,
    );
    expect(answeredBytes).toBeLessThanOrEqual(300);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.error).toEqual({
      code: -32012,
      message: expect.stringContaining("limit of 300 bytes (maxResponseBytes)"),
    });
  });

  it("applies maxResponseBytes to an SSE answer too", async () => {
    const { url } = await start({ maxResponseBytes: 40, responseMode: "sse" });
    const sessionId = await openSession(url);
    const answer = await post(url, ping(1), headersFor(sessionId));
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(sseMessages(answer.text)).toEqual([
      { jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32012 }) },
    ]);
  });
});

describe("sessions bound to their creator", () => {
  it("answers another user's requests naming a session with 404, on POST, GET and DELETE", async () => {
    const { url, handler } = await start({ authenticate: bearerUser });
    const alices = await openSessionAs(url, "alice");
    const bob = headersFor(alices, "2025-11-25", "bob");
    expect((await post(url, ping(1), bob)).status).toBe(404);
    const get = await rawRequest(url, { headers: { accept: "text/event-stream", ...bob } });
    expect(get.status).toBe(404);
    expect(JSON.parse(get.text).error.code).toBe(-32013);
    expect((await rawRequest(url, { method: "DELETE", headers: bob })).status).toBe(404);
    expect(handler.sessionCount).toBe(1);
    const alice = headersFor(alices, "2025-11-25", "alice");
    expect((await post(url, ping(2), alice)).status).toBe(200);
  });

  it("hands the bound identity to onSession, from an explicit identity over info", async () => {
    const identities: unknown[] = [];
    const { url } = await start({
      authenticate: () => ({ ok: true, info: { at: Date.now() }, identity: "carol" }),
      onSession: async (transport, session) => {
        identities.push(session.identity);
        answerRequests(transport);
        await transport.start();
      },
    });
    await post(url, initializeRequest(0));
    expect(identities).toEqual(["id:carol"]);
  });
});

describe("session limits", () => {
  it("refuses an initialize beyond maxSessions with 503 and Retry-After", async () => {
    const { url, handler } = await start({ maxSessions: 2 });
    await openSession(url);
    await openSession(url);
    const refused = await post(url, initializeRequest(0));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(JSON.parse(refused.text).error.message).toContain("maxSessions");
    expect(handler.sessionCount).toBe(2);
  });

  it("refuses a user's session beyond maxSessionsPerIdentity while others may still open theirs", async () => {
    const { url } = await start({ authenticate: bearerUser, maxSessionsPerIdentity: 1 });
    const alices = await openSessionAs(url, "alice");
    const again = await post(url, initializeRequest(0), { authorization: "Bearer alice" });
    expect(again.status).toBe(503);
    expect(again.headers.get("retry-after")).not.toBeNull();
    expect(JSON.parse(again.text).error.message).toContain("maxSessionsPerIdentity");
    await openSessionAs(url, "bob");
    await rawRequest(url, {
      method: "DELETE",
      headers: headersFor(alices, "2025-11-25", "alice"),
    });
    await openSessionAs(url, "alice");
  });

  it("ends a session whose client never comes back after initialize within the short TTL", async () => {
    const clock = createManualClock();
    const { url, handler } = await start({ clock, uninitializedSessionTimeoutMs: 5_000 });
    const abandoned = await post(url, initializeRequest(0));
    const established = await openSession(url);
    const closes: (TransportCloseEvent | undefined)[] = [];
    const abandonedId = abandoned.headers.get("mcp-session-id") ?? "";
    handler.getSession(abandonedId)?.onClose((event) => closes.push(event));
    clock.advance(5_000);
    expect(closes).toEqual([{ initiator: "remote", details: { reason: "idle-timeout" } }]);
    expect(handler.getSession(abandonedId)).toBeUndefined();
    expect(handler.getSession(established)).toBeDefined();
    clock.advance(60_000);
    expect(handler.getSession(established)).toBeDefined();
  });
});

describe("SSE clients that do not read", () => {
  it("closes the stream and ends the session once more than maxSseBufferBytes wait", async () => {
    const { url, handler } = await start({ maxSseBufferBytes: 64 * 1024, keepAliveIntervalMs: 0 });
    const sessionId = await openSession(url);
    const stream = await openStalledSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    expect(stream.status).toBe(200);
    const transport = handler.getSession(sessionId);
    if (transport === undefined) throw new Error("no session");
    const closed = new Promise<TransportCloseEvent>((resolve) => transport.onClose(resolve));
    const errors: Error[] = [];
    transport.onError((error) => errors.push(error));
    const payload = "x".repeat(64 * 1024);
    // Loopback socket buffers take a few MB before the server has to wait; 200 MB bounds the test.
    for (let sent = 0; sent < 3200 && !transport.closed; sent++) {
      void transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { payload } });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const event = await closed;
    expect(event.details).toEqual({ reason: "sse-client-not-reading" });
    expect(event.error?.message).toContain("limit of 65536 bytes (maxSseBufferBytes)");
    expect(errors[0]?.message).toContain("does not read");
    await stream.drainUntilClosed();
    expect(handler.getSession(sessionId)).toBeUndefined();
  });

  it("bounds the messages waiting for a GET stream by maxSseBufferBytes, dropping the oldest", async () => {
    const { url, handler } = await start({ maxSseBufferBytes: 1000, keepAliveIntervalMs: 0 });
    const sessionId = await openSession(url);
    const transport = handler.getSession(sessionId);
    const errors: Error[] = [];
    transport?.onError((error) => errors.push(error));
    const payload = "w".repeat(400);
    for (let index = 0; index < 5; index++) {
      await transport?.send({ jsonrpc: "2.0", method: "queued", params: { index, payload } });
    }
    expect(errors).toHaveLength(3);
    expect(errors[0]?.message).toContain("Dropped the oldest server message");
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    const indexes = [1, 2].map(async (position) => {
      const event = await stream.event(position);
      return JSON.parse(event.data).params.index as number;
    });
    expect(await Promise.all(indexes)).toEqual([3, 4]);
    stream.abort();
  });

  it("still delivers one message larger than maxSseBufferBytes to a client that reads", async () => {
    const { url, handler } = await start({ maxSseBufferBytes: 1024, keepAliveIntervalMs: 0 });
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(sessionId) },
    });
    await stream.event(0);
    const payload = "y".repeat(256 * 1024);
    await handler
      .getSession(sessionId)
      ?.send({ jsonrpc: "2.0", method: "big", params: { payload } });
    const event = await stream.event(1);
    expect(JSON.parse(event.data).params.payload).toHaveLength(256 * 1024);
    expect(handler.getSession(sessionId)?.closed).toBe(false);
    stream.abort();
  });
});

describe("resumable events", () => {
  it("keeps a quiet session's events resumable while another session sends many", async () => {
    const { url, handler } = await start({ keepAliveIntervalMs: 0 });
    const quietId = await openSession(url);
    const busyId = await openSession(url);
    const quiet = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(quietId) },
    });
    const priming = await quiet.event(0);
    await handler.getSession(quietId)?.send({ jsonrpc: "2.0", method: "quiet/one" });
    await quiet.event(1);
    quiet.abort();
    const busy = await openSse(url, {
      headers: { accept: "text/event-stream", ...headersFor(busyId) },
    });
    await busy.event(0);
    const busyTransport = handler.getSession(busyId);
    // More than the store's 1000 events in all.
    for (let index = 0; index < 1200; index++) {
      await busyTransport?.send({ jsonrpc: "2.0", method: "busy/tick", params: { index } });
    }
    busy.abort();
    const resumed = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming.id ?? "",
        ...headersFor(quietId),
      },
    });
    expect(JSON.parse((await resumed.event(0)).data)).toEqual({
      jsonrpc: "2.0",
      method: "quiet/one",
    });
    resumed.abort();
  });
});
