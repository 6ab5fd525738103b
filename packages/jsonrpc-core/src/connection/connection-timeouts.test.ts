import { describe, expect, it } from "vitest";
import { createRawPeer, flushMicrotasks } from "../../test/raw-peer.js";
import { CancelledError, TimeoutError } from "../errors/connection-errors.js";
import type { JSONRPCId, JSONRPCNotification, JSONRPCParams } from "../messages.js";
import { createManualClock as createFakeClock } from "../testing/manual-clock.js";
import type { CancellationHooks, ProgressHooks } from "./hooks.js";

const cancellation: CancellationHooks = {
  createNotification: (id, reason) => ({
    jsonrpc: "2.0",
    method: "test/cancelled",
    params: reason === undefined ? { id } : { id, reason },
  }),
  readRequestId: (notification) =>
    notification.method === "test/cancelled"
      ? ((notification.params as { id: JSONRPCId }).id ?? undefined)
      : undefined,
};

const progress: ProgressHooks = {
  attachToken: (params, token) => ({ ...(params as object), token }) as JSONRPCParams,
  readToken: (notification: JSONRPCNotification) =>
    notification.method === "test/progress"
      ? (notification.params as { token: JSONRPCId }).token
      : undefined,
};

const progressOf = (token: JSONRPCId, value: number): JSONRPCNotification => ({
  jsonrpc: "2.0",
  method: "test/progress",
  params: { token, value },
});

async function settled(promise: Promise<unknown>): Promise<unknown> {
  let outcome: unknown = "pending";
  promise.then(
    (value) => {
      outcome = { value };
    },
    (error: unknown) => {
      outcome = error;
    },
  );
  await flushMicrotasks();
  return outcome;
}

describe("Connection: timeouts", () => {
  it("times out after 60 s by default and not a millisecond earlier", async () => {
    const clock = createFakeClock();
    const { connection, nextFrame } = await createRawPeer({ clock });
    const result = connection.request("slow");
    await nextFrame();
    clock.advance(59_999);
    expect(await settled(result)).toBe("pending");
    clock.advance(1);
    const error = await settled(result);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as TimeoutError).timeoutMs).toBe(60_000);
  });

  it("honours a per-request timeout, and 0 means none", async () => {
    const clock = createFakeClock();
    const { connection } = await createRawPeer({ clock });
    const short = connection.request("a", undefined, { timeoutMs: 10 });
    const never = connection.request("b", undefined, { timeoutMs: 0 });
    clock.advance(10);
    expect(TimeoutError.isInstance(await settled(short))).toBe(true);
    clock.advance(10_000_000);
    expect(await settled(never)).toBe("pending");
    expect(clock.pendingTimers).toBe(0);
  });

  it("treats Infinity and limits beyond what timers honour as no limit", async () => {
    const scheduled: number[] = [];
    const clock = {
      setTimeout: (_: () => void, ms: number) => scheduled.push(ms),
      clearTimeout: () => {},
    };
    const { connection } = await createRawPeer({ clock });
    void connection.request("a", undefined, { timeoutMs: Number.POSITIVE_INFINITY });
    void connection.request("b", undefined, { timeoutMs: 2 ** 31, maxTotalTimeoutMs: Infinity });
    void connection.request("c", undefined, { timeoutMs: 2 ** 31 - 1 });
    expect(scheduled).toEqual([2 ** 31 - 1]);
  });

  it("sends the protocol's cancel notification on timeout, and keeps one timer, not one per request", async () => {
    const clock = createFakeClock();
    const { connection, peer, nextFrame } = await createRawPeer({ clock, cancellation });
    const result = connection.request("slow", undefined, { timeoutMs: 100 });
    await nextFrame();
    clock.advance(100);
    await settled(result);
    expect(await nextFrame()).toMatchObject({ method: "test/cancelled", params: { id: 0 } });
    const answered = connection.request("fast", undefined, { timeoutMs: 100 });
    await nextFrame();
    await peer.send({ jsonrpc: "2.0", id: 1, result: "ok" });
    expect(await answered).toBe("ok");
    // The shared timer stays armed for the next request (see connection-shared-timer.test.ts).
    expect(clock.pendingTimers).toBe(1);
    const again = connection.request("fast", undefined, { timeoutMs: 100 });
    await nextFrame();
    await peer.send({ jsonrpc: "2.0", id: 2, result: "ok" });
    expect(await again).toBe("ok");
    expect(clock.pendingTimers).toBe(1);
    await peer.close();
    await flushMicrotasks();
    expect(clock.pendingTimers).toBe(0);
  });

  it("restarts the countdown on progress when asked, and only then", async () => {
    const clock = createFakeClock();
    const { connection, peer, nextFrame } = await createRawPeer({ clock, progress });
    const options = { timeoutMs: 100, onProgress: () => {} };
    const reset = connection.request("a", {}, { ...options, resetTimeoutOnProgress: true });
    const plain = connection.request("b", {}, options);
    await nextFrame();
    await nextFrame();
    clock.advance(90);
    await peer.send(progressOf(0, 1));
    await peer.send(progressOf(1, 1));
    await flushMicrotasks();
    clock.advance(90);
    expect(await settled(reset)).toBe("pending");
    expect(TimeoutError.isInstance(await settled(plain))).toBe(true);
    clock.advance(10);
    expect(TimeoutError.isInstance(await settled(reset))).toBe(true);
  });

  it("enforces maxTotalTimeoutMs even while progress keeps arriving", async () => {
    const clock = createFakeClock();
    const { connection, peer, nextFrame } = await createRawPeer({ clock, progress });
    const result = connection.request(
      "long",
      {},
      {
        timeoutMs: 100,
        resetTimeoutOnProgress: true,
        maxTotalTimeoutMs: 250,
        onProgress: () => {},
      },
    );
    await nextFrame();
    for (let step = 0; step < 4; step++) {
      clock.advance(60);
      await peer.send(progressOf(0, step));
      await flushMicrotasks();
    }
    expect(await settled(result)).toBe("pending");
    clock.advance(10);
    const error = await settled(result);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as TimeoutError).timeoutMs).toBe(250);
  });
});

describe("Connection: progress", () => {
  it("attaches a token and hands matching progress to onProgress only", async () => {
    const { connection, peer, nextFrame } = await createRawPeer({ progress });
    const seen: unknown[] = [];
    const result = connection.request(
      "work",
      { x: 1 },
      { onProgress: (params) => seen.push(params) },
    );
    expect(await nextFrame()).toMatchObject({ id: 0, params: { x: 1, token: 0 } });
    await peer.send(progressOf(0, 50));
    await peer.send(progressOf(99, 50));
    await peer.send({ jsonrpc: "2.0", id: 0, result: "done" });
    expect(await result).toBe("done");
    expect(seen).toEqual([{ token: 0, value: 50 }]);
  });

  it("does not attach a token when the caller wants no progress", async () => {
    const { connection, nextFrame } = await createRawPeer({ progress });
    void connection.request("work", { x: 1 });
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 0, method: "work", params: { x: 1 } });
  });
});

describe("Connection: cancellation", () => {
  it("rejects with CancelledError on abort and sends the cancel notification with the reason", async () => {
    const { connection, nextFrame } = await createRawPeer({ cancellation });
    const controller = new AbortController();
    const result = connection.request("slow", undefined, { signal: controller.signal });
    await nextFrame();
    controller.abort("user pressed stop");
    const error = await result.catch((caught: unknown) => caught);
    expect(CancelledError.isInstance(error)).toBe(true);
    expect((error as CancelledError).cause).toBe("user pressed stop");
    expect(await nextFrame()).toEqual({
      jsonrpc: "2.0",
      method: "test/cancelled",
      params: { id: 0, reason: "user pressed stop" },
    });
  });

  it("sends one cancel notification when a timed-out request is aborted afterwards", async () => {
    const clock = createFakeClock();
    const { connection, nextFrame } = await createRawPeer({ clock, cancellation });
    const controller = new AbortController();
    const options = { signal: controller.signal, timeoutMs: 10 };
    const result = connection.request("slow", undefined, options).catch((error) => error);
    await nextFrame();
    clock.advance(10);
    controller.abort();
    expect(TimeoutError.isInstance(await result)).toBe(true);
    await connection.notify("marker");
    expect(await nextFrame()).toMatchObject({ method: "test/cancelled" });
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("sends nothing for a signal that is already aborted", async () => {
    const { connection, nextFrame } = await createRawPeer({ cancellation });
    const error = await connection
      .request("x", undefined, { signal: AbortSignal.abort() })
      .catch((caught: unknown) => caught);
    expect(CancelledError.isInstance(error)).toBe(true);
    await connection.notify("marker");
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("aborts the handler's signal on the peer's cancel notification and sends no response", async () => {
    const { connection, peer, nextFrame } = await createRawPeer({ cancellation });
    const aborted = new Promise<unknown>((resolve) => {
      connection.handle("slow", (_params, context) => {
        context.signal.addEventListener("abort", () => resolve(context.signal.reason));
        return new Promise((settle) => {
          context.signal.addEventListener("abort", () => settle("too late"));
        });
      });
    });
    connection.handle("ping", () => "pong");
    await peer.send({ jsonrpc: "2.0", id: 5, method: "slow" });
    await peer.send({ jsonrpc: "2.0", method: "test/cancelled", params: { id: 5, reason: "bye" } });
    const reason = await aborted;
    expect(CancelledError.isInstance(reason)).toBe(true);
    expect((reason as Error).message).toBe("bye");
    await peer.send({ jsonrpc: "2.0", id: 6, method: "ping" });
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 6, result: "pong" });
  });
});
