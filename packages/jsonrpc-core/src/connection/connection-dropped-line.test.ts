import { describe, expect, it } from "vitest";
import { LineTooLongError } from "../errors/transport-errors.js";
import type { Frame } from "../messages.js";
import type { Transport } from "../transport.js";
import { TransportEvents } from "../transport-kit.js";
import { createConnection } from "./create-connection.js";

/** A transport the test feeds errors into, recording what the connection sends. */
function createStubTransport() {
  const events = new TransportEvents();
  const sent: Frame[] = [];
  const transport: Transport = {
    start: async () => events.start(),
    send: async (frame) => {
      sent.push(frame);
    },
    close: async () => {
      events.emitClose({ initiator: "local" });
    },
    onFrame: (listener) => events.onFrame(listener),
    onError: (listener) => events.onError(listener),
    onClose: (listener) => events.onClose(listener),
  };
  return { transport, events, sent };
}

describe("Connection: lines too long to read", () => {
  it("fails the pending request a dropped response was for, at once, naming the limit", async () => {
    const { transport, events } = createStubTransport();
    const connection = createConnection(transport, { defaultTimeoutMs: 0 });
    await connection.start();
    const first = connection.request("tools/call");
    const second = connection.request("tools/call");
    const dropped = new LineTooLongError(1024, { lineBytes: 5000, id: 1, messageType: "response" });
    events.emitError(dropped);
    await expect(second).rejects.toBe(dropped);
    await expect(second).rejects.toThrow("over the limit of 1024 bytes");
    events.emitFrame({ jsonrpc: "2.0", id: 0, result: { ok: true } });
    expect(await first).toEqual({ ok: true });
  });

  it("answers a dropped request with -32600 naming the limit", async () => {
    const { transport, events, sent } = createStubTransport();
    const connection = createConnection(transport);
    await connection.start();
    events.emitError(new LineTooLongError(64, { lineBytes: 100, id: "r", messageType: "request" }));
    await Promise.resolve();
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: "r",
        error: {
          code: -32600,
          message: "Request too large: 100 bytes, over the limit of 64 bytes",
          data: { maxLineBytes: 64, lineBytes: 100 },
        },
      },
    ]);
  });

  it("sends nothing and fails nothing for a dropped line of unknown id or kind", async () => {
    const { transport, events, sent } = createStubTransport();
    const connection = createConnection(transport, { defaultTimeoutMs: 0 });
    const errors: Error[] = [];
    connection.onError((error) => errors.push(error));
    await connection.start();
    const pending = connection.request("x");
    events.emitError(new LineTooLongError(64, { lineBytes: 100 }));
    events.emitError(new LineTooLongError(64, { lineBytes: 100, id: 0 }));
    events.emitFrame({ jsonrpc: "2.0", id: 0, result: 1 });
    expect(await pending).toBe(1);
    expect(sent).toHaveLength(1);
    expect(errors).toHaveLength(2);
  });
});
