import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryEventStore } from "./event-store.js";
import {
  openSession,
  openSse,
  post,
  sessionHeaders,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";

const ping = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "ping" });

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Two handlers that share an event store, as two replicas sharing Redis would. */
async function twoReplicas() {
  const eventStore = createInMemoryEventStore();
  const a = await startTestServer({ eventStore });
  const b = await startTestServer({ eventStore });
  servers.push(a, b);
  return { a, b };
}

describe("adoptSession", () => {
  it("serves a session created by another handler, with the same id and identity", async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await openSession(a.url);
    expect((await post(b.url, ping(1), sessionHeaders(sessionId))).status).toBe(404);
    const transport = await b.handler.adoptSession(sessionId, {
      protocolVersion: "2025-11-25",
      request: { headers: {} } as never,
      authInfo: undefined,
    });
    expect(transport.sessionId).toBe(sessionId);
    expect(b.handler.sessionCount).toBe(1);
    const answer = await post(b.url, ping(2), sessionHeaders(sessionId));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"echo":"ping"');
  });

  it("returns the open transport when the session is already here", async () => {
    const { a } = await twoReplicas();
    const sessionId = await openSession(a.url);
    const adopted = await a.handler.adoptSession(sessionId, {
      protocolVersion: "2025-11-25",
      request: { headers: {} } as never,
      authInfo: undefined,
    });
    expect(adopted).toBe(a.handler.getSession(sessionId));
    expect(a.transports).toHaveLength(1);
  });

  it("binds the adopted session to the given identity: another caller gets 404", async () => {
    const eventStore = createInMemoryEventStore();
    const b = await startTestServer({
      eventStore,
      authenticate: (request) => ({ ok: true, info: request.headers["x-user"] }),
    });
    servers.push(b);
    await b.handler.adoptSession("s-1", {
      protocolVersion: "2025-11-25",
      request: { headers: {} } as never,
      authInfo: "alice",
    });
    expect((await post(b.url, ping(1), { ...sessionHeaders("s-1"), "x-user": "bob" })).status).toBe(
      404,
    );
    expect(
      (await post(b.url, ping(2), { ...sessionHeaders("s-1"), "x-user": "alice" })).status,
    ).toBe(200);
  });

  it("resumes the standalone stream of another handler from the shared store", async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await openSession(a.url);
    const stream = await openSse(a.url, {
      headers: { ...sessionHeaders(sessionId), accept: "text/event-stream" },
    });
    const priming = await stream.event(0);
    const serverSide = a.handler.getSession(sessionId);
    await serverSide?.send({ jsonrpc: "2.0", method: "notifications/one" });
    const first = await stream.event(1);
    await serverSide?.send({ jsonrpc: "2.0", method: "notifications/two" });
    await stream.event(2);
    stream.abort();
    const adopted = await b.handler.adoptSession(sessionId, {
      protocolVersion: "2025-11-25",
      request: { headers: {} } as never,
      authInfo: undefined,
    });
    expect(priming.id).toBeTruthy();
    const resumed = await openSse(b.url, {
      headers: {
        ...sessionHeaders(sessionId),
        accept: "text/event-stream",
        "last-event-id": first.id as string,
      },
    });
    const replayed = await resumed.event(0);
    expect(JSON.parse(replayed.data)).toEqual({ jsonrpc: "2.0", method: "notifications/two" });
    await adopted.send({ jsonrpc: "2.0", method: "notifications/three" });
    expect(JSON.parse((await resumed.event(1)).data)).toMatchObject({
      method: "notifications/three",
    });
    resumed.abort();
  });

  it("is refused by a stateless handler", async () => {
    const server = await startTestServer({ stateless: true });
    servers.push(server);
    await expect(
      server.handler.adoptSession("s", {
        protocolVersion: "2025-11-25",
        request: { headers: {} } as never,
        authInfo: undefined,
      }),
    ).rejects.toThrow(/stateless/);
  });
});
