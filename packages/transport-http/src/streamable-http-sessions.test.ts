import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  answerMessages,
  initializeRequest,
  openSession,
  openSse,
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

describe("sessions", () => {
  it("ends a session on DELETE (200), after which it is 404", async () => {
    const { url, handler } = await start();
    const sessionId = await openSession(url);
    const closes: string[] = [];
    handler.getSession(sessionId)?.onClose((event) => closes.push(event.initiator));
    const deleted = await rawRequest(url, { method: "DELETE", headers: sessionHeaders(sessionId) });
    expect(deleted.status).toBe(200);
    expect(closes).toEqual(["remote"]);
    expect((await post(url, ping(1), sessionHeaders(sessionId))).status).toBe(404);
    expect(handler.sessionCount).toBe(0);
  });

  it("awaits onSessionDeleted with the session's id before a DELETE's 200; a failing hook still gets 200", async () => {
    const heard: string[] = [];
    let release: () => void = () => {};
    let told: () => void = () => {};
    const hookCalled = new Promise<void>((resolve) => {
      told = resolve;
    });
    let fail = false;
    const { url } = await start({
      onSessionDeleted: (sessionId) => {
        heard.push(sessionId);
        told();
        if (fail) return Promise.reject(new Error("the shared store is gone"));
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    const sessionId = await openSession(url);
    let answered = false;
    const deleting = rawRequest(url, { method: "DELETE", headers: sessionHeaders(sessionId) }).then(
      (answer) => {
        answered = true;
        return answer;
      },
    );
    await hookCalled;
    expect(heard).toEqual([sessionId]);
    // The session ended here already; the client hears so only once the hook is done.
    expect((await post(url, ping(1), sessionHeaders(sessionId))).status).toBe(404);
    expect(answered).toBe(false);
    release();
    expect((await deleting).status).toBe(200);
    fail = true;
    const second = await openSession(url);
    const deleted = await rawRequest(url, { method: "DELETE", headers: sessionHeaders(second) });
    expect(deleted.status).toBe(200);
    expect(heard).toEqual([sessionId, second]);
  });

  it("expires an idle session after the TTL, which then answers 404", async () => {
    const clock = createManualClock();
    const { url, handler } = await start({ clock, sessionIdleTimeoutMs: 60_000 });
    const sessionId = await openSession(url);
    clock.advance(30_000);
    expect((await post(url, ping(1), sessionHeaders(sessionId))).status).toBe(200);
    clock.advance(59_000);
    expect(handler.sessionCount).toBe(1);
    clock.advance(1_000);
    expect(handler.sessionCount).toBe(0);
    expect((await post(url, ping(2), sessionHeaders(sessionId))).status).toBe(404);
  });

  it("keeps a session with an open GET stream past the TTL", async () => {
    const clock = createManualClock();
    const { url, handler } = await start({ clock, sessionIdleTimeoutMs: 1000 });
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
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
    expect(answerMessages(answer)).toEqual([{ jsonrpc: "2.0", id: 1, result: { echo: "ping" } }]);
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
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    await stream.event(0);
    await handler.close();
    await stream.ended;
    expect(closes).toEqual(["remote"]);
    expect(handler.sessionCount).toBe(0);
    expect((await post(url, initializeRequest(1))).status).toBe(503);
  });
});
