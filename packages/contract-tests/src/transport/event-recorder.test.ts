import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ContractWaitError } from "./deadline.js";
import { EventRecorder, recordTransport } from "./event-recorder.js";

const options = { side: "server side", noun: "frame", waitTimeoutMs: 2_000 };

describe("EventRecorder", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves a wait once enough events arrived", async () => {
    const recorder = new EventRecorder<number>(options);
    const waiting = recorder.waitFor(2);
    recorder.record(1);
    recorder.record(2);
    await expect(waiting).resolves.toEqual([1, 2]);
  });

  it("fails a wait with the close reason instead of hanging when the transport closes", async () => {
    const recorder = new EventRecorder<number>(options);
    const waiting = recorder.waitFor(3);
    recorder.record(1);
    recorder.fail({ initiator: "remote" });
    await expect(waiting).rejects.toThrow(
      "server side: the transport closed (remote) after 1 frame, while waiting for frame number 3",
    );
    await expect(recorder.waitFor(2)).rejects.toThrow("closed");
  });

  it("fails a wait that sees no event within the deadline, saying what it waited for", async () => {
    vi.useFakeTimers();
    const recorder = new EventRecorder<number>({ ...options, noun: "close event" });
    const waiting = recorder.waitFor(1, "after the client closed");
    const failure = waiting.catch((error: unknown) => error);
    vi.advanceTimersByTime(1_999);
    recorder.record(0);
    await expect(waiting).resolves.toEqual([0]);
    const never = recorder.waitFor(2, "after the client closed").catch((error: unknown) => error);
    vi.advanceTimersByTime(2_000);
    const error = await never;
    expect(ContractWaitError.isInstance(error)).toBe(true);
    expect(String(error)).toContain(
      "server side: no close event number 2 within 2 s after the client closed (1 close event so far)",
    );
    expect(await failure).toEqual([0]);
  });

  it("restarts the deadline on every event, so a stream that keeps coming is not cut short", async () => {
    vi.useFakeTimers();
    const recorder = new EventRecorder<number>(options);
    const waiting = recorder.waitFor(3);
    vi.advanceTimersByTime(1_500);
    recorder.record(1);
    vi.advanceTimersByTime(1_500);
    recorder.record(2);
    vi.advanceTimersByTime(1_500);
    recorder.record(3);
    await expect(waiting).resolves.toEqual([1, 2, 3]);
  });
});

describe("recordTransport", () => {
  it("records frames and the close event of a transport", async () => {
    const [client, server] = createMemoryTransportPair();
    const recording = recordTransport(server, "server side", 2_000);
    await server.start();
    await client.start();
    await client.send({ jsonrpc: "2.0", method: "hello" });
    await expect(recording.frames.waitForEvent(0)).resolves.toEqual({
      frame: { jsonrpc: "2.0", method: "hello" },
      info: {},
    });
    await client.close();
    await expect(recording.closes.waitForEvent(0)).resolves.toEqual({ initiator: "remote" });
  });
});
