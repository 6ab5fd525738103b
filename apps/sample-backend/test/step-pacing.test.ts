import { createClient } from "@patchbay/client";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSampleServer } from "../src/index.js";

// The pacing is what lets SDK 1.x clients see progress (tests/interop proves that with the real
// SDK); here fake timers pin the pause itself: nothing moves until the server's step delay elapses.
async function connect(stepDelayMs?: number) {
  const server = createSampleServer(stepDelayMs === undefined ? {} : { stepDelayMs });
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const client = createClient({ name: "pacing-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the sample backend paces its progress tools", () => {
  it("test_tool_with_progress waits the step delay after each report before the next, and before its result", async () => {
    const client = await connect(40);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const seen: number[] = [];
    let nextReport = () => {};
    let settled = false;
    const call = client
      .callTool(
        { name: "test_tool_with_progress" },
        {
          onProgress: ({ progress }) => {
            seen.push(progress);
            nextReport();
          },
        },
      )
      .finally(() => {
        settled = true;
      });
    const report = () =>
      new Promise<void>((resolve) => {
        nextReport = resolve;
      });
    await report();
    for (const expected of [[0], [0, 50], [0, 50, 100]]) {
      expect(seen).toEqual(expected);
      await vi.advanceTimersByTimeAsync(39);
      expect(seen).toEqual(expected);
      expect(settled).toBe(false);
      const next = report();
      await vi.advanceTimersByTimeAsync(1);
      if (expected.length < 3) await next;
    }
    await call;
    expect(settled).toBe(true);
    expect(seen).toEqual([0, 50, 100]);
    await client.close();
  });

  it("long_task waits the step delay after its last report before its result", async () => {
    const client = await connect(25);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const seen: number[] = [];
    let settled = false;
    let lastReport = () => {};
    const reported = new Promise<void>((resolve) => {
      lastReport = resolve;
    });
    const call = client
      .callTool(
        { name: "long_task", arguments: { steps: 2, stepMs: 10 } },
        {
          onProgress: ({ progress }) => {
            seen.push(progress);
            if (progress === 2) lastReport();
          },
        },
      )
      .finally(() => {
        settled = true;
      });
    await vi.advanceTimersByTimeAsync(20);
    await reported;
    expect(seen).toEqual([0, 1, 2]);
    await vi.advanceTimersByTimeAsync(24);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await call).content).toEqual([{ type: "text", text: "Completed 2 steps" }]);
    await client.close();
  });

  it("defaults to 50 ms after each report", async () => {
    const client = await connect();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let settled = false;
    const call = client.callTool({ name: "test_tool_with_progress" }).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(149);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(settled).toBe(true);
    await client.close();
  });

  it("does not pause at all with a step delay of 0", async () => {
    const client = await connect(0);
    // Timers frozen: the call can only finish if it sets none.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate"] });
    const seen: number[] = [];
    await client.callTool(
      { name: "test_tool_with_progress" },
      { onProgress: ({ progress }) => seen.push(progress) },
    );
    expect(seen).toEqual([0, 50, 100]);
    await client.close();
  });

  it("rejects a step delay that is not an integer from 0 to 60000", () => {
    for (const stepDelayMs of [-1, 1.5, 60_001, Number.NaN]) {
      expect(() => createSampleServer({ stepDelayMs })).toThrow(/stepDelayMs must be/);
    }
  });
});
