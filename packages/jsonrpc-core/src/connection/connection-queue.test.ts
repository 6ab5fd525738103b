import { describe, expect, it } from "vitest";
import { createRawPeer } from "../../test/raw-peer.js";
import { SERVER_BUSY_ERROR_CODE } from "../errors/implementation-error-code.js";
import type { JSONRPCResponse } from "../messages.js";

describe("Connection: bounded handler queue", () => {
  it("answers requests beyond maxQueuedHandlers with server busy (-32010) and never runs them", async () => {
    const { connection, peer, nextFrame } = await createRawPeer({
      maxConcurrentHandlers: 1,
      maxQueuedHandlers: 2,
    });
    const started: number[] = [];
    const releases: (() => void)[] = [];
    connection.handle("slow", (params) => {
      const n = (params as number[])[0] as number;
      started.push(n);
      return new Promise<number>((resolve) => releases.push(() => resolve(n)));
    });
    // 1 runs, 2 and 3 wait, 4 and 5 find the queue full.
    for (const n of [1, 2, 3, 4, 5]) {
      await peer.send({ jsonrpc: "2.0", id: n, method: "slow", params: [n] });
    }
    const busy = [(await nextFrame()) as JSONRPCResponse, (await nextFrame()) as JSONRPCResponse];
    expect(busy.map((response) => response.id)).toEqual([4, 5]);
    for (const response of busy) {
      expect(response).toMatchObject({
        error: {
          code: SERVER_BUSY_ERROR_CODE,
          message: expect.stringContaining("maxQueuedHandlers"),
        },
      });
    }
    releases.shift()?.();
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 1, result: 1 });
    releases.shift()?.();
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 2, result: 2 });
    releases.shift()?.();
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 3, result: 3 });
    expect(started).toEqual([1, 2, 3]);
  });

  it("queues up to 1000 requests by default", async () => {
    const { connection, peer, nextFrame } = await createRawPeer({ maxConcurrentHandlers: 1 });
    let release: () => void = () => {};
    connection.handle(
      "hold",
      () => new Promise<null>((resolve) => (release = () => resolve(null))),
    );
    connection.handle("quick", () => "ok");
    await peer.send({ jsonrpc: "2.0", id: 0, method: "hold" });
    for (let n = 1; n <= 1001; n++) await peer.send({ jsonrpc: "2.0", id: n, method: "quick" });
    expect(await nextFrame()).toMatchObject({ id: 1001, error: { code: SERVER_BUSY_ERROR_CODE } });
    release();
    expect(await nextFrame()).toMatchObject({ id: 0, result: null });
  });
});
