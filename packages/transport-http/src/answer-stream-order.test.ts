import type { FrameInfo } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryEventStore, type EventStore } from "./event-store.js";
import type { HttpResponseSink } from "./http-io.js";
import { ServerSseStream } from "./server-sse-stream.js";
import {
  answerRequests,
  openSession,
  post,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An event store whose priming markers wait until `release()` once `hold()` was called. */
function holdingStore() {
  const inner = createInMemoryEventStore();
  let held: Promise<void> | undefined;
  let release = () => {};
  let primingAsked = () => {};
  const asked = new Promise<void>((resolve) => (primingAsked = resolve));
  const store: EventStore = {
    async storeEvent(streamId, message, sessionId) {
      if (held !== undefined && message === undefined) {
        primingAsked();
        await held;
      }
      return inner.storeEvent(streamId, message, sessionId);
    },
    replayEventsAfter: (lastEventId, send) => inner.replayEventsAfter(lastEventId, send),
  };
  return {
    store,
    asked,
    hold() {
      held = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

describe("a POST answered as SSE", () => {
  it("hands its requests in, naming their answer stream, before the priming event is stored", async () => {
    const holding = holdingStore();
    const seen: { streamId: unknown; primingStored: boolean }[] = [];
    let primingStored = false;
    server = await startTestServer({
      eventStore: holding.store,
      onSession: async (transport) => {
        transport.onFrame((frame, info: FrameInfo) => {
          if ("method" in frame && frame.method === "ping") {
            seen.push({ streamId: info.extra?.streamId, primingStored });
          }
        });
        answerRequests(transport);
        await transport.start();
      },
    });
    const sessionId = await openSession(server.url);
    holding.hold();
    const answer = post(
      server.url,
      { jsonrpc: "2.0", id: 7, method: "ping" },
      { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    );
    await holding.asked;
    expect(seen).toHaveLength(1);
    primingStored = true;
    holding.release();
    const { text } = await answer;
    // The priming event still comes first, with an id of the stream the frame named.
    const ids = [...text.matchAll(/^id: (.*)$/gm)].map((match) => match[1]);
    expect(text.indexOf("data: \n")).toBeLessThan(text.indexOf('"id":7'));
    expect(typeof seen[0]?.streamId).toBe("string");
    expect(ids[0]?.startsWith(`${seen[0]?.streamId as string}_`)).toBe(true);
    expect(seen[0]?.primingStored).toBe(false);
  });
});

describe("ServerSseStream with deferHeaders", () => {
  it("sends no headers before its first event", async () => {
    const calls: string[] = [];
    const sink: HttpResponseSink = {
      headersSent: false,
      writableEnded: false,
      writableFinished: false,
      destroyed: false,
      writableLength: 0,
      writeHead: () => calls.push("writeHead"),
      flushHeaders: () => calls.push("flushHeaders"),
      write: (chunk) => calls.push(`write ${String(chunk).split("\n")[0]}`) > 0,
      end: () => calls.push("end"),
      destroy: () => calls.push("destroy"),
      on: () => undefined,
      off: () => undefined,
    };
    const stream = new ServerSseStream(sink, {
      streamId: "s",
      clock: createManualClock(),
      keepAliveIntervalMs: 0,
      deferHeaders: true,
    });
    expect(calls).toEqual(["writeHead"]);
    await stream.prime(1000);
    expect(calls).toEqual(["writeHead", "write retry: 1000"]);
    await stream.end();
  });
});
