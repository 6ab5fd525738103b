import { describe, expect, it } from "vitest";
import { createRawPeer, flushMicrotasks } from "../../test/raw-peer.js";
import { TimeoutError } from "../errors/connection-errors.js";
import { createManualClock } from "../testing/manual-clock.js";
import type { Clock } from "./clock.js";

function outcome(promise: Promise<unknown>): { value: unknown } {
  const seen: { value: unknown } = { value: "pending" };
  promise.then(
    (value) => (seen.value = { value }),
    (error: unknown) => (seen.value = error),
  );
  return seen;
}

/** Sends request `a` (limit 100 ms) as request `id` of the connection, answers it, awaits its result. */
async function answerOne(
  raw: Awaited<ReturnType<typeof createRawPeer>>,
  id: number,
): Promise<unknown> {
  const answered = raw.connection.request("a", undefined, { timeoutMs: 100 });
  await raw.nextFrame();
  await raw.peer.send({ jsonrpc: "2.0", id, result: "ok" });
  return answered;
}

/**
 * A manual clock whose timer handles record `ref` and `unref` (as Node's handles offer them), and
 * which counts the timers made and cleared.
 */
function createRecordingClock(madeUnrefd = false) {
  const manual = createManualClock();
  const log: string[] = [];
  let created = 0;
  let cleared = 0;
  const clock: Clock & {
    advance(ms: number): void;
    readonly pendingTimers: number;
    readonly log: string[];
    readonly created: number;
    readonly cleared: number;
  } = {
    now: () => manual.now(),
    setTimeout(callback, ms) {
      const number = ++created;
      let refd = !madeUnrefd;
      return {
        inner: manual.setTimeout(callback, ms),
        ref: () => {
          refd = true;
          log.push(`ref ${number}`);
        },
        unref: () => {
          refd = false;
          log.push(`unref ${number}`);
        },
        hasRef: () => refd,
      };
    },
    clearTimeout(handle) {
      cleared += 1;
      manual.clearTimeout((handle as { inner: unknown }).inner);
    },
    setInterval: (callback, ms) => manual.setInterval(callback, ms),
    clearInterval: (handle) => manual.clearInterval(handle),
    advance: (ms) => manual.advance(ms),
    get pendingTimers() {
      return manual.pendingTimers;
    },
    log,
    get created() {
      return created;
    },
    get cleared() {
      return cleared;
    },
  };
  return clock;
}

describe("Connection: one timer for every request's limits", () => {
  it("keeps one timer for many requests, and times each out at its own deadline", async () => {
    const clock = createManualClock();
    const { connection } = await createRawPeer({ clock });
    const first = outcome(connection.request("a", undefined, { timeoutMs: 100 }));
    clock.advance(30);
    const second = outcome(
      connection.request("b", undefined, { timeoutMs: 1_000, maxTotalTimeoutMs: 50 }),
    );
    const third = outcome(connection.request("c", undefined, { timeoutMs: 100 }));
    expect(clock.pendingTimers).toBe(1);
    clock.advance(49);
    await flushMicrotasks();
    expect([first.value, second.value, third.value]).toEqual(["pending", "pending", "pending"]);
    clock.advance(1); // 80: b's total limit
    await flushMicrotasks();
    expect((second.value as TimeoutError).message).toBe(
      'Request "b" timed out after 50 ms (maximum total time)',
    );
    expect(first.value).toBe("pending");
    clock.advance(20); // 100: a's idle limit
    await flushMicrotasks();
    expect(TimeoutError.isInstance(first.value)).toBe(true);
    expect(third.value).toBe("pending");
    clock.advance(30); // 130: c's
    await flushMicrotasks();
    expect((third.value as TimeoutError).timeoutMs).toBe(100);
    expect(clock.pendingTimers).toBe(0);
  });

  it("keeps one armed timer across requests: unref'd while none is pending, cleared on close", async () => {
    const clock = createRecordingClock();
    const { connection, peer, nextFrame } = await createRawPeer({ clock });
    const first = connection.request("a", undefined, { timeoutMs: 100 });
    await nextFrame();
    expect(clock.created).toBe(1);
    expect(clock.log).toEqual([]);
    await peer.send({ jsonrpc: "2.0", id: 0, result: "ok" });
    expect(await first).toBe("ok");
    // The last request settled: the timer is kept, and no longer holds the process open.
    expect(clock.pendingTimers).toBe(1);
    expect(clock.cleared).toBe(0);
    expect(clock.log).toEqual(["unref 1"]);
    clock.advance(50);
    const second = connection.request("b", undefined, { timeoutMs: 100 });
    await nextFrame();
    // The next request holds the same timer again: no new timer, none cleared.
    expect(clock.created).toBe(1);
    expect(clock.cleared).toBe(0);
    expect(clock.log).toEqual(["unref 1", "ref 1"]);
    // The kept timer fires at the first request's deadline, finds b not due and re-arms for it.
    clock.advance(50);
    expect(clock.created).toBe(2);
    expect(clock.pendingTimers).toBe(1);
    await peer.send({ jsonrpc: "2.0", id: 1, result: "ok" });
    expect(await second).toBe("ok");
    expect(clock.log).toEqual(["unref 1", "ref 1", "unref 2"]);
    // Idle, the timer fires once more, finds nothing due and simply ends.
    clock.advance(100);
    expect(clock.pendingTimers).toBe(0);
    expect(clock.created).toBe(2);
    const third = outcome(connection.request("c", undefined, { timeoutMs: 100 }));
    await nextFrame();
    expect(clock.created).toBe(3);
    await peer.close();
    await flushMicrotasks();
    expect(third.value).not.toBe("pending");
    expect(clock.pendingTimers).toBe(0);
    expect(clock.cleared).toBe(1);
  });

  it("clears the idle timer when the connection closes with nothing pending", async () => {
    const clock = createRecordingClock();
    const raw = await createRawPeer({ clock });
    const { connection, peer } = raw;
    expect(await answerOne(raw, 0)).toBe("ok");
    expect(clock.pendingTimers).toBe(1);
    await peer.close();
    await flushMicrotasks();
    expect(connection.closed).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it("never refs a timer its clock made unref'd (as backgroundClock does)", async () => {
    const clock = createRecordingClock(true);
    const raw = await createRawPeer({ clock });
    for (const id of [0, 1]) expect(await answerOne(raw, id)).toBe("ok");
    expect(clock.created).toBe(1);
    expect(clock.log).toEqual([]);
  });

  it("does not hold the idle timer for a request without a limit", async () => {
    const clock = createRecordingClock();
    const raw = await createRawPeer({ clock });
    expect(await answerOne(raw, 0)).toBe("ok");
    void raw.connection.request("b", undefined, { timeoutMs: 0 });
    await raw.nextFrame();
    expect(clock.log).toEqual(["unref 1"]);
    expect(clock.created).toBe(1);
  });

  it("falls back to a timer per limit with a clock that cannot tell the time", async () => {
    const scheduled: number[] = [];
    const clock = {
      setTimeout: (_: () => void, ms: number) => scheduled.push(ms),
      clearTimeout: () => {},
    };
    const { connection } = await createRawPeer({ clock });
    void connection.request("a", undefined, { timeoutMs: 100, maxTotalTimeoutMs: 500 });
    void connection.request("b", undefined, { timeoutMs: 100 });
    expect(scheduled).toEqual([100, 500, 100]);
  });
});
