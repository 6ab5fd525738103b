import { describe, expect, it } from "vitest";
import { createConnectionPair, createRawPeer } from "../../test/raw-peer.js";
import { ConnectionClosedError, UnexpectedResponseError } from "../errors/connection-errors.js";
import { createManualClock as createFakeClock } from "../testing/manual-clock.js";
import type { Transport, TransportCloseEvent } from "../transport.js";
import { createConnection } from "./create-connection.js";

describe("Connection: close", () => {
  it("rejects every pending request with ConnectionClosedError", async () => {
    const { connection, nextFrame } = await createRawPeer();
    const first = connection.request("a");
    const second = connection.request("b");
    await nextFrame();
    await connection.close();
    for (const result of [first, second]) {
      const error = await result.catch((caught: unknown) => caught);
      expect(ConnectionClosedError.isInstance(error)).toBe(true);
    }
    expect(connection.closed).toBe(true);
  });

  it("rejects pending requests when the peer closes, and emits close once", async () => {
    const { client, server } = await createConnectionPair();
    const events: TransportCloseEvent[] = [];
    client.onClose((event) => events.push(event));
    server.handle("hang", () => new Promise(() => {}));
    const result = client.request("hang");
    const closed = new Promise((resolve) => client.onClose(resolve));
    await server.close();
    await closed;
    await client.close();
    expect(ConnectionClosedError.isInstance(await result.catch((caught: unknown) => caught))).toBe(
      true,
    );
    expect(events).toEqual([{ initiator: "remote" }]);
  });

  it("aborts running handlers' signals on close", async () => {
    const { client, server } = await createConnectionPair();
    const started = new Promise<AbortSignal>((resolve) => {
      server.handle("hang", (_params, context) => {
        resolve(context.signal);
        return new Promise(() => {});
      });
    });
    void client.request("hang").catch(() => {});
    const signal = await started;
    await server.close();
    expect(signal.aborted).toBe(true);
    expect(ConnectionClosedError.isInstance(signal.reason)).toBe(true);
  });

  it("gives ConnectionClosedError the transport's failure as cause", async () => {
    let emitClose: (event: TransportCloseEvent) => void = () => {};
    const transport: Transport = {
      start: async () => {},
      close: async () => {},
      send: async () => {},
      onFrame: () => () => {},
      onError: () => () => {},
      onClose: (listener) => {
        emitClose = listener;
        return () => {};
      },
    };
    const connection = createConnection(transport);
    const result = connection.request("x").catch((caught: unknown) => caught);
    const failure = new Error("child exited with code 1");
    emitClose({ initiator: "error", error: failure });
    const error = await result;
    expect(ConnectionClosedError.isInstance(error)).toBe(true);
    expect((error as ConnectionClosedError).cause).toBe(failure);
  });

  it("rejects requests and notifications made after close", async () => {
    const { connection } = await createRawPeer();
    await connection.close();
    await expect(connection.request("x")).rejects.toSatisfy(ConnectionClosedError.isInstance);
    await expect(connection.notify("y")).rejects.toSatisfy(ConnectionClosedError.isInstance);
  });
});

describe("Connection: unexpected responses", () => {
  it("ignores and reports a late response to a request that timed out", async () => {
    const clock = createFakeClock();
    const { connection, peer, nextFrame, waitForErrors } = await createRawPeer({ clock });
    const result = connection.request("slow", undefined, { timeoutMs: 5 }).catch(() => "timed out");
    await nextFrame();
    clock.advance(5);
    expect(await result).toBe("timed out");
    await peer.send({ jsonrpc: "2.0", id: 0, result: "late" });
    const errors = await waitForErrors(1);
    expect(UnexpectedResponseError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as UnexpectedResponseError).response).toEqual({
      jsonrpc: "2.0",
      id: 0,
      result: "late",
    });
  });

  it("settles once on a duplicate response and reports the second", async () => {
    const { connection, peer, nextFrame, waitForErrors } = await createRawPeer();
    const result = connection.request("a");
    await nextFrame();
    await peer.send({ jsonrpc: "2.0", id: 0, result: 1 });
    await peer.send({ jsonrpc: "2.0", id: 0, result: 2 });
    expect(await result).toBe(1);
    const errors = await waitForErrors(1);
    expect(UnexpectedResponseError.isInstance(errors[0])).toBe(true);
  });

  it("does not match a string id to a numeric one", async () => {
    const { connection, peer, nextFrame, waitForErrors } = await createRawPeer();
    void connection.request("a");
    await nextFrame();
    await peer.send({ jsonrpc: "2.0", id: "0", result: 1 });
    const errors = await waitForErrors(1);
    expect(UnexpectedResponseError.isInstance(errors[0])).toBe(true);
  });

  it("reports an error response with id null", async () => {
    const { peer, waitForErrors } = await createRawPeer();
    await peer.send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    const errors = await waitForErrors(1);
    expect(errors[0]?.message).toContain("could not read");
  });
});
