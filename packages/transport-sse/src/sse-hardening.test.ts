import type { TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import type { Authenticate } from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import {
  openStream,
  rawRequest,
  startTestSseServer,
  type TestSseServer,
} from "./test-support/sse-fixtures.js";
import { openStalledStream } from "./test-support/stalled-stream.js";

let server: TestSseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startTestSseServer>[0] = {}) {
  server = await startTestSseServer(options);
  return server;
}

/** Accepts `Bearer <user>`; a new `info` object on every request. */
const bearerUser: Authenticate = (request) => {
  const user = request.headers.authorization?.replace(/^Bearer /, "");
  return user === undefined ? { ok: false } : { ok: true, info: { user } };
};
const as = (user: string) => ({ authorization: `Bearer ${user}` });

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  rawRequest(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

describe("legacy SSE handler hardening", () => {
  it("answers another user's POST to a session with 404, as for an unknown session", async () => {
    const { url } = await start({ authenticate: bearerUser });
    const alice = await openStream(url, as("alice"));
    const endpoint = new URL((await alice.event(0)).data, url).href;
    const stolen = await post(endpoint, ping(1), as("bob"));
    expect(stolen.status).toBe(404);
    expect(JSON.parse(stolen.text).error.code).toBe(-32013);
    expect((await post(endpoint, ping(2), as("alice"))).status).toBe(202);
    expect(JSON.parse((await alice.event(1)).data)).toMatchObject({ id: 2 });
    alice.abort();
  });

  it("refuses a stream beyond maxSessions, and beyond maxSessionsPerIdentity, with 503 and Retry-After", async () => {
    const { url } = await start({
      authenticate: bearerUser,
      maxSessions: 2,
      maxSessionsPerIdentity: 1,
    });
    const alice = await openStream(url, as("alice"));
    const again = await rawRequest(url, {
      headers: { accept: "text/event-stream", ...as("alice") },
    });
    expect(again.status).toBe(503);
    expect(again.headers["retry-after"]).toBe("30");
    expect(JSON.parse(again.text).error.message).toContain("maxSessionsPerIdentity");
    const bob = await openStream(url, as("bob"));
    const carol = await rawRequest(url, {
      headers: { accept: "text/event-stream", ...as("carol") },
    });
    expect(carol.status).toBe(503);
    expect(JSON.parse(carol.text).error.message).toContain("maxSessions");
    alice.abort();
    bob.abort();
  });

  it("ends a session whose client never POSTs after opening the stream within the short TTL", async () => {
    const clock = createManualClock();
    const { url, transports } = await start({ clock, uninitializedSessionTimeoutMs: 5_000 });
    const idle = await openStream(url);
    await idle.event(0);
    const active = await openStream(url);
    const endpoint = new URL((await active.event(0)).data, url).href;
    expect((await post(endpoint, ping(1), {})).status).toBe(202);
    const closes: TransportCloseEvent[] = [];
    transports[0]?.onClose((event) => closes.push(event));
    clock.advance(5_000);
    expect(closes).toEqual([{ initiator: "remote", details: { reason: "idle-timeout" } }]);
    expect(transports[1]?.closed).toBe(false);
    await idle.ended;
    active.abort();
  });

  it("refuses a batch of more than maxBatchSize messages with 413", async () => {
    const { url } = await start({ maxBatchSize: 3 });
    const stream = await openStream(url);
    const endpoint = new URL((await stream.event(0)).data, url).href;
    const answer = await post(endpoint, [ping(1), ping(2), ping(3), ping(4)]);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error.message).toContain("limit of 3 (maxBatchSize)");
    stream.abort();
  });

  it("disconnects a client that never reads its stream instead of buffering its answers", async () => {
    const { url, transports } = await start({
      maxSseBufferBytes: 64 * 1024,
      keepAliveIntervalMs: 0,
    });
    const stalled = await openStalledStream(url);
    const transport = transports[0];
    if (transport === undefined) throw new Error("no session");
    const closed = new Promise<TransportCloseEvent>((resolve) => transport.onClose(resolve));
    const payload = "z".repeat(32 * 1024);
    let status = 202;
    // Each 202 queues a 32 KB answer on the unread stream; loopback buffers take a few MB first.
    for (let id = 0; status === 202 && id < 4000; id++) {
      status = (await post(stalled.endpoint, { ...ping(id), params: { payload } })).status;
    }
    expect(status).toBe(404);
    const event = await closed;
    expect(event.details).toEqual({ reason: "sse-client-not-reading" });
    expect(event.error?.message).toContain("limit of 65536 bytes (maxSseBufferBytes)");
    await stalled.drainUntilClosed();
  });
});
