import type { Frame } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { createInMemoryEventStore } from "./event-store.js";

const note = (method: string): Frame => ({ jsonrpc: "2.0", method });

async function replay(store: ReturnType<typeof createInMemoryEventStore>, lastEventId: string) {
  const replayed: [string, Frame][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, (eventId, message) => {
    replayed.push([eventId, message]);
  });
  return { streamId, methods: replayed.map(([, frame]) => (frame as { method: string }).method) };
}

describe("createInMemoryEventStore", () => {
  it("replays only the same stream's messages after the given id, skipping priming markers", async () => {
    const store = createInMemoryEventStore();
    const priming = await store.storeEvent("a", undefined);
    await store.storeEvent("a", note("a1"));
    await store.storeEvent("b", note("b1"));
    await store.storeEvent("a", note("a2"));
    expect(await replay(store, priming)).toEqual({ streamId: "a", methods: ["a1", "a2"] });
  });

  it("answers undefined for an unknown id", async () => {
    const store = createInMemoryEventStore();
    expect(await replay(store, "nope")).toEqual({ streamId: undefined, methods: [] });
  });

  it("keeps at most maxEvents, dropping the oldest", async () => {
    const store = createInMemoryEventStore({ maxEvents: 2 });
    const first = await store.storeEvent("a", note("one"));
    const second = await store.storeEvent("a", note("two"));
    await store.storeEvent("a", note("three"));
    expect((await replay(store, first)).streamId).toBeUndefined();
    expect(await replay(store, second)).toEqual({ streamId: "a", methods: ["three"] });
  });

  it("forgets a stream's events", async () => {
    const store = createInMemoryEventStore();
    const id = await store.storeEvent("a", note("one"));
    store.forgetStream?.("a");
    expect((await replay(store, id)).streamId).toBeUndefined();
  });

  it("mints event ids unique across streams", async () => {
    const store = createInMemoryEventStore();
    const ids = await Promise.all(
      ["a", "b", "a", "b"].map((stream) => store.storeEvent(stream, note("x"))),
    );
    expect(new Set(ids).size).toBe(4);
  });

  it("keeps at most maxEventsPerSession per session, so a busy session evicts only its own events", async () => {
    const store = createInMemoryEventStore({ maxEvents: 10, maxEventsPerSession: 3 });
    const quiet = await store.storeEvent("q", undefined, "quiet");
    await store.storeEvent("q", note("kept"), "quiet");
    const busyFirst = await store.storeEvent("b", note("b0"), "busy");
    for (let index = 1; index < 20; index++) await store.storeEvent("b", note(`b${index}`), "busy");
    expect(await replay(store, quiet)).toEqual({ streamId: "q", methods: ["kept"] });
    expect((await replay(store, busyFirst)).streamId).toBeUndefined();
  });
});
