import { describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "../memory/memory-transport.js";
import type { Frame, JSONRPCId } from "../messages.js";
import type { FrameInfo, SendOptions, Transport } from "../transport.js";
import { createConnection } from "./create-connection.js";

/** Wraps a transport to record the options of each send. */
function recordSends(transport: Transport): {
  transport: Transport;
  sent: [Frame, SendOptions | undefined][];
} {
  const sent: [Frame, SendOptions | undefined][] = [];
  return {
    sent,
    transport: {
      start: () => transport.start(),
      close: () => transport.close(),
      send(frame, options) {
        sent.push([frame, options]);
        return transport.send(frame, options);
      },
      onFrame: (listener) => transport.onFrame(listener),
      onError: (listener) => transport.onError(listener),
      onClose: (listener) => transport.onClose(listener),
    },
  };
}

describe("Connection: related requests", () => {
  it("sends a handler's request and notification related to the incoming request", async () => {
    const [clientSide, serverSide] = createMemoryTransportPair();
    const recorded = recordSends(serverSide);
    const server = createConnection(recorded.transport);
    const client = createConnection(clientSide);
    server.handle("work", async (_params, context) => {
      await context.connection.notify("note", { step: 1 }, { relatedRequestId: context.id });
      return await context.connection.request("ask", {}, { relatedRequestId: context.id });
    });
    const asked: FrameInfo[] = [];
    const noted: FrameInfo[] = [];
    client.handle("ask", (_params, context) => {
      asked.push(context.info);
      return { answer: 42 };
    });
    client.onNotification((_notification, info) => noted.push(info));
    await Promise.all([server.start(), client.start()]);
    let workId: JSONRPCId | undefined;
    const result = await client.request("work", {}, { onRequestId: (id) => (workId = id) });
    expect(result).toEqual({ answer: 42 });
    expect(workId).toBe(0);
    // The peer learns which of its own requests the server's messages belong to.
    expect(asked.map((info) => info.relatedRequestId)).toEqual([0]);
    expect(noted.map((info) => info.relatedRequestId)).toEqual([0]);
    // The response needs no relation: every transport routes it by its id.
    expect(recorded.sent.map(([, options]) => options?.relatedRequestId)).toEqual([
      0,
      0,
      undefined,
    ]);
  });

  it("sends unrelated messages without options", async () => {
    const [clientSide, serverSide] = createMemoryTransportPair();
    const recorded = recordSends(serverSide);
    const server = createConnection(recorded.transport);
    const client = createConnection(clientSide);
    const infos: FrameInfo[] = [];
    client.onNotification((_notification, info) => infos.push(info));
    await Promise.all([server.start(), client.start()]);
    await server.notify("hello");
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(recorded.sent).toEqual([[{ jsonrpc: "2.0", method: "hello" }, undefined]]);
    expect(infos).toEqual([{}]);
  });
});
