import { describe, expect, it } from "vitest";
import { createRawPeer } from "../../test/raw-peer.js";
import { ConnectionClosedError, TimeoutError } from "../errors/connection-errors.js";
import { TransportError } from "../errors/transport-errors.js";
import { createManualClock } from "../testing/manual-clock.js";
import type { Transport } from "../transport.js";
import { createConnection } from "./create-connection.js";

/** Counts `onSettled` calls. */
function settledProbe(): { options: { onSettled(): void }; calls: number } {
  const probe = {
    calls: 0,
    options: {
      onSettled() {
        probe.calls++;
      },
    },
  };
  return probe;
}

describe("Connection: RequestOptions.onSettled", () => {
  it("is called once when the answer arrives, before the promise's handlers run", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    const probe = settledProbe();
    const order: string[] = [];
    const result = connection
      .request("echo", undefined, {
        onSettled() {
          probe.options.onSettled();
          order.push("settled");
        },
      })
      .then((value) => {
        order.push("resolved");
        return value;
      });
    await nextFrame();
    expect(probe.calls).toBe(0);
    await peer.send({ jsonrpc: "2.0", id: 0, result: "ok" });
    expect(await result).toBe("ok");
    expect(order).toEqual(["settled", "resolved"]);
    expect(probe.calls).toBe(1);
  });

  it("is called once for an error answer, a timeout and a close", async () => {
    const clock = createManualClock();
    const { connection, peer, nextFrame } = await createRawPeer({ clock });
    const failed = settledProbe();
    const timedOut = settledProbe();
    const closed = settledProbe();
    const first = connection.request("a", undefined, failed.options).catch((error) => error);
    const second = connection
      .request("b", undefined, { ...timedOut.options, timeoutMs: 10 })
      .catch((error) => error);
    const third = connection.request("c", undefined, closed.options).catch((error) => error);
    await nextFrame();
    await peer.send({ jsonrpc: "2.0", id: 0, error: { code: -32000, message: "no" } });
    expect(await first).toMatchObject({ code: -32000 });
    clock.advance(10);
    expect(TimeoutError.isInstance(await second)).toBe(true);
    await connection.close();
    expect(ConnectionClosedError.isInstance(await third)).toBe(true);
    expect([failed.calls, timedOut.calls, closed.calls]).toEqual([1, 1, 1]);
  });

  it("is called for a request refused before it is sent, and for one whose send failed", async () => {
    const { connection } = await createRawPeer();
    const cancelled = settledProbe();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await connection
      .request("a", undefined, { ...cancelled.options, signal: controller.signal })
      .catch(() => {});
    expect(cancelled.calls).toBe(1);

    const failing: Transport = {
      start: async () => {},
      close: async () => {},
      send: async () => {
        throw new Error("pipe broken");
      },
      onFrame: () => () => {},
      onError: () => () => {},
      onClose: () => () => {},
    };
    const broken = createConnection(failing);
    const unsent = settledProbe();
    const error = await broken.request("x", undefined, unsent.options).catch((caught) => caught);
    expect(TransportError.isInstance(error)).toBe(true);
    expect(unsent.calls).toBe(1);

    await connection.close();
    const late = settledProbe();
    await connection.request("b", undefined, late.options).catch(() => {});
    expect(late.calls).toBe(1);
  });

  it("reports an onSettled that throws, and still settles the request", async () => {
    const { connection, peer, nextFrame, waitForErrors } = await createRawPeer();
    const hookFailure = new Error("hook broke");
    const throwing = {
      onSettled() {
        throw hookFailure;
      },
    };
    const answered = connection.request("a", undefined, throwing);
    await nextFrame();
    await peer.send({ jsonrpc: "2.0", id: 0, result: "ok" });
    expect(await answered).toBe("ok");
    await connection.close();
    await connection.request("b", undefined, throwing).catch(() => {});
    expect(await waitForErrors(2)).toEqual([hookFailure, hookFailure]);
  });
});
