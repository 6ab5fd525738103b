import { describe, expect, it, vi } from "vitest";
import type { TelemetryEvent } from "./event.js";
import type { EventSink } from "./event-sink.js";
import { createQueuedSink } from "./queued-sink.js";

function event(index: number): TelemetryEvent {
  return {
    timestamp: "2026-01-31T12:00:00.000Z",
    trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
    status: "success",
    event_type: `test.${index}`,
    source: "test",
    data: {},
  };
}

/** A sink whose writes never settle: the worst kind of slow. */
function hangingSink(): EventSink & { batches: number } {
  const sink = {
    batches: 0,
    write(): Promise<void> {
      sink.batches += 1;
      return new Promise<void>(() => {});
    },
  };
  return sink;
}

function collectingSink(): EventSink & { written: string[] } {
  const written: string[] = [];
  return {
    written,
    async write(events) {
      for (const item of events) written.push(item.event_type);
    },
  };
}

describe("createQueuedSink", () => {
  it("returns from enqueue without calling the sink", () => {
    const sink = collectingSink();
    const queued = createQueuedSink(sink);
    expect(queued.enqueue(event(1))).toBe(true);
    expect(sink.written).toEqual([]);
  });

  it("never queues the events its sink declines", async () => {
    const sink = {
      ...collectingSink(),
      accepts: (item: TelemetryEvent) => item.event_type !== "test.1",
    };
    const queued = createQueuedSink(sink, { maxQueue: 2 });
    for (let index = 0; index < 3; index += 1) expect(queued.enqueue(event(index))).toBe(true);
    await queued.flush();
    expect(sink.written).toEqual(["test.0", "test.2"]);
    expect(queued.dropped).toBe(0);
  });

  it("writes queued events in order, in batches", async () => {
    const sink = collectingSink();
    const queued = createQueuedSink(sink, { maxBatch: 2 });
    for (let index = 0; index < 5; index += 1) queued.enqueue(event(index));
    await queued.flush();
    expect(sink.written).toEqual(["test.0", "test.1", "test.2", "test.3", "test.4"]);
    expect(queued.pending).toBe(0);
  });

  it("drops and counts events once a sink that never finishes has filled the queue", async () => {
    const sink = hangingSink();
    const queued = createQueuedSink(sink, { maxQueue: 10, maxBatch: 4 });
    const accepted: boolean[] = [];
    for (let index = 0; index < 25; index += 1) accepted.push(queued.enqueue(event(index)));
    // Let the drain loop hand its first batch to the sink.
    await Promise.resolve();
    await Promise.resolve();
    for (let index = 25; index < 30; index += 1) accepted.push(queued.enqueue(event(index)));
    expect(accepted.filter(Boolean)).toHaveLength(10);
    expect(queued.dropped).toBe(20);
    expect(queued.pending).toBe(10);
    expect(sink.batches).toBe(1);
  });

  it("counts the events of a failed write and keeps going", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const written: string[] = [];
    const queued = createQueuedSink(
      {
        async write(events) {
          calls += 1;
          if (calls === 1) throw new Error("disk full");
          for (const item of events) written.push(item.event_type);
        },
      },
      { maxBatch: 1, onError: (error) => errors.push(error) },
    );
    queued.enqueue(event(1));
    queued.enqueue(event(2));
    await queued.flush();
    expect(queued.failed).toBe(1);
    expect(written).toEqual(["test.2"]);
    expect(errors).toHaveLength(1);
  });

  it("closes the sink after the last write and drops later events", async () => {
    let closed = false;
    const sink = collectingSink();
    const queued = createQueuedSink({
      write: (events) => sink.write(events),
      close: async () => {
        closed = true;
      },
    });
    queued.enqueue(event(1));
    await queued.close();
    expect(sink.written).toEqual(["test.1"]);
    expect(closed).toBe(true);
    expect(queued.enqueue(event(2))).toBe(false);
    expect(queued.dropped).toBe(1);
  });

  it("resolves flush with 0 once everything queued is written", async () => {
    const sink = collectingSink();
    const queued = createQueuedSink(sink);
    queued.enqueue(event(1));
    await expect(queued.flush()).resolves.toBe(0);
    expect(sink.written).toEqual(["test.1"]);
  });

  it("gives up flushing a sink that never finishes, resolving with the events left unwritten", async () => {
    vi.useFakeTimers();
    try {
      const queued = createQueuedSink(hangingSink());
      queued.enqueue(event(1));
      queued.enqueue(event(2));
      let unwritten: number | undefined;
      const flushing = queued.flush(1000).then((count) => {
        unwritten = count;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(unwritten).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await flushing;
      expect(unwritten).toBe(2);
      // Not dropped: the sink may still catch up.
      expect(queued.pending).toBe(2);
      expect(queued.dropped).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("bounds flush by 5 seconds when no timeout is given", async () => {
    vi.useFakeTimers();
    try {
      const queued = createQueuedSink(hangingSink());
      queued.enqueue(event(1));
      const flushing = queued.flush();
      await vi.advanceTimersByTimeAsync(5000);
      await expect(flushing).resolves.toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives up closing a sink that never finishes, counting what was left as dropped", async () => {
    vi.useFakeTimers();
    try {
      const queued = createQueuedSink(hangingSink());
      queued.enqueue(event(1));
      queued.enqueue(event(2));
      const closing = queued.close(1000);
      await vi.advanceTimersByTimeAsync(1000);
      await closing;
      expect(queued.dropped).toBe(2);
      expect(queued.pending).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("asks acceptsType per event unless the caller says the type was accepted already", async () => {
    const asked: string[] = [];
    const sink = collectingSink();
    const queued = createQueuedSink({
      ...sink,
      acceptsType: (type) => {
        asked.push(type);
        return type !== "test.2";
      },
    });
    queued.enqueue(event(1));
    queued.enqueue(event(2));
    queued.enqueue(event(3), true);
    await queued.flush();
    expect(asked).toEqual(["test.1", "test.2"]);
    expect(sink.written).toEqual(["test.1", "test.3"]);
  });
});
