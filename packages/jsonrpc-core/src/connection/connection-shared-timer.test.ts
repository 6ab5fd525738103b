import { describe, expect, it } from "vitest";
import { createRawPeer, flushMicrotasks } from "../../test/raw-peer.js";
import { TimeoutError } from "../errors/connection-errors.js";
import { createManualClock } from "../testing/manual-clock.js";

function outcome(promise: Promise<unknown>): { value: unknown } {
  const seen: { value: unknown } = { value: "pending" };
  promise.then(
    (value) => (seen.value = { value }),
    (error: unknown) => (seen.value = error),
  );
  return seen;
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

  it("clears the shared timer once no request is pending", async () => {
    const clock = createManualClock();
    const { connection, peer, nextFrame } = await createRawPeer({ clock });
    const answered = connection.request("a", undefined, { timeoutMs: 100 });
    await nextFrame();
    expect(clock.pendingTimers).toBe(1);
    await peer.send({ jsonrpc: "2.0", id: 0, result: "ok" });
    expect(await answered).toBe("ok");
    expect(clock.pendingTimers).toBe(0);
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
