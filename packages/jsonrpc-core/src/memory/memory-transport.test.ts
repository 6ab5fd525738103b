import { describe, expect, it, vi } from "vitest";
import { TransportError } from "../errors/transport-errors.js";
import type { Frame, JSONRPCNotification } from "../messages.js";
import type { Transport, TransportCloseEvent } from "../transport.js";
import { createMemoryTransportPair } from "./memory-transport.js";

const note = (method: string): JSONRPCNotification => ({ jsonrpc: "2.0", method });

function nextFrame(transport: Transport): Promise<Frame> {
  return new Promise((resolve) => {
    const unsubscribe = transport.onFrame((frame) => {
      unsubscribe();
      resolve(frame);
    });
  });
}

function closeEvents(transport: Transport): TransportCloseEvent[] {
  const events: TransportCloseEvent[] = [];
  transport.onClose((event) => events.push(event));
  return events;
}

describe("createMemoryTransportPair", () => {
  it("delivers what one end sends to the other", async () => {
    const [client, server] = createMemoryTransportPair();
    await Promise.all([client.start(), server.start()]);
    const received = nextFrame(server);
    await client.send(note("a"));
    expect(await received).toEqual(note("a"));
  });

  it("delivers in send order, batches included", async () => {
    const [client, server] = createMemoryTransportPair();
    await server.start();
    const frames: Frame[] = [];
    server.onFrame((frame) => frames.push(frame));
    await client.send(note("1"));
    await client.send([note("2"), note("3")]);
    const last = nextFrame(server);
    await client.send(note("4"));
    await last;
    expect(frames).toEqual([note("1"), [note("2"), note("3")], note("4")]);
  });

  it("queues frames until start() and then delivers them in order", async () => {
    const [client, server] = createMemoryTransportPair();
    const frames: Frame[] = [];
    server.onFrame((frame) => frames.push(frame));
    await client.send(note("early-1"));
    await client.send(note("early-2"));
    await Promise.resolve();
    expect(frames).toEqual([]);
    await server.start();
    await server.start();
    expect(frames).toEqual([note("early-1"), note("early-2")]);
  });

  it("emits exactly one close event per side: local on the closer, remote on the peer", async () => {
    const [client, server] = createMemoryTransportPair();
    const clientEvents = closeEvents(client);
    const serverEvents = closeEvents(server);
    const serverClosed = new Promise((resolve) => server.onClose(resolve));
    await client.close();
    await serverClosed;
    await client.close();
    await server.close();
    expect(clientEvents).toEqual([{ initiator: "local" }]);
    expect(serverEvents).toEqual([{ initiator: "remote" }]);
  });

  it("emits one close event per side when both sides close at once", async () => {
    const [client, server] = createMemoryTransportPair();
    const clientEvents = closeEvents(client);
    const serverEvents = closeEvents(server);
    await Promise.all([client.close(), server.close()]);
    await Promise.resolve();
    expect(clientEvents).toEqual([{ initiator: "local" }]);
    expect(serverEvents).toEqual([{ initiator: "local" }]);
  });

  it("delivers frames sent before close ahead of the peer's close event", async () => {
    const [client, server] = createMemoryTransportPair();
    await server.start();
    const order: string[] = [];
    server.onFrame(() => order.push("frame"));
    const closed = new Promise<void>((resolve) =>
      server.onClose(() => {
        order.push("close");
        resolve();
      }),
    );
    await client.send(note("last words"));
    await client.close();
    await closed;
    expect(order).toEqual(["frame", "close"]);
  });

  it("rejects send after close with a TransportError, on both ends", async () => {
    const [client, server] = createMemoryTransportPair();
    const serverClosed = new Promise((resolve) => server.onClose(resolve));
    await client.close();
    await serverClosed;
    for (const end of [client, server]) {
      const error = await end.send(note("x")).catch((caught: unknown) => caught);
      expect(TransportError.isInstance(error)).toBe(true);
    }
  });

  it("supports several listeners, each with its own unsubscribe", async () => {
    const [client, server] = createMemoryTransportPair();
    await server.start();
    const first = vi.fn();
    const second = vi.fn();
    const unsubscribeFirst = server.onFrame(first);
    server.onFrame(second);
    const received = nextFrame(server);
    await client.send(note("a"));
    await received;
    unsubscribeFirst();
    unsubscribeFirst();
    const again = nextFrame(server);
    await client.send(note("b"));
    await again;
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it("reports a throwing frame listener as an error and keeps delivering", async () => {
    const [client, server] = createMemoryTransportPair();
    await server.start();
    const errors: Error[] = [];
    server.onError((error) => errors.push(error));
    server.onFrame(() => {
      throw new Error("listener bug");
    });
    const received = nextFrame(server);
    await client.send(note("a"));
    expect(await received).toEqual(note("a"));
    expect(errors.map((error) => error.message)).toEqual(["listener bug"]);
  });
});
