import { describe, expect, it } from "vitest";
import { createCollector } from "../../test/collector.js";
import { createRawPeer } from "../../test/raw-peer.js";
import { InvalidFrameError } from "../errors/transport-errors.js";
import { createFrameDecoder } from "../framing/line-decoder.js";
import type { Frame, JSONRPCResponse } from "../messages.js";
import type { FrameInfo, Transport } from "../transport.js";
import { createConnection } from "./create-connection.js";

/** A transport fed with raw lines, as a stdio transport would be. */
function createLineFedTransport() {
  const frameListeners = new Set<(frame: Frame, info: FrameInfo) => void>();
  const errorListeners = new Set<(error: Error) => void>();
  const sent = createCollector<Frame>();
  const decoder = createFrameDecoder({
    onFrame: (frame, info) => {
      for (const listener of frameListeners) listener(frame, info);
    },
    onError: (error) => {
      for (const listener of errorListeners) listener(error);
    },
  });
  const transport: Transport = {
    start: async () => {},
    close: async () => {},
    send: async (frame) => sent.push(frame),
    onFrame: (listener) => {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    onError: (listener) => {
      errorListeners.add(listener);
      return () => errorListeners.delete(listener);
    },
    onClose: () => () => {},
  };
  return { transport, waitForSent: sent.waitFor, push: (text: string) => decoder.push(text) };
}

describe("Connection: batches (JSON-RPC 2.0 section 6)", () => {
  it("answers a batch of requests with one batch of responses", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    connection.handle("double", (params) => (params as number[]).map((n) => n * 2));
    await peer.send([
      { jsonrpc: "2.0", id: 1, method: "double", params: [1] },
      { jsonrpc: "2.0", method: "just-a-note" },
      { jsonrpc: "2.0", id: 2, method: "missing" },
    ]);
    const reply = (await nextFrame()) as JSONRPCResponse[];
    expect(Array.isArray(reply)).toBe(true);
    expect(reply).toHaveLength(2);
    expect(reply).toContainEqual({ jsonrpc: "2.0", id: 1, result: [2] });
    expect(reply.find((response) => response.id === 2)).toMatchObject({ error: { code: -32601 } });
  });

  it("sends nothing back for a batch of notifications", async () => {
    const { connection, peer, nextFrame } = await createRawPeer();
    connection.handle("ping", () => "pong");
    await peer.send([
      { jsonrpc: "2.0", method: "a" },
      { jsonrpc: "2.0", method: "b" },
    ]);
    await peer.send({ jsonrpc: "2.0", id: 9, method: "ping" });
    expect(await nextFrame()).toEqual({ jsonrpc: "2.0", id: 9, result: "pong" });
  });

  it("adds the transport's rejections for invalid elements to the batch reply", async () => {
    const { transport, waitForSent, push } = createLineFedTransport();
    const connection = createConnection(transport);
    connection.handle("ok", () => true);
    await connection.start();
    push('[{"jsonrpc":"2.0","id":1,"method":"ok"},{"foo":1},{"jsonrpc":"2.0","method":"n"}]\n');
    const sent = await waitForSent(1);
    const reply = sent[0] as JSONRPCResponse[];
    expect(reply).toHaveLength(2);
    expect(reply).toContainEqual({ jsonrpc: "2.0", id: 1, result: true });
    expect(reply.find((response) => response.id === null)).toMatchObject({
      error: { code: -32600 },
    });
  });

  it("answers a batch of only invalid elements with one error each", async () => {
    const { transport, waitForSent, push } = createLineFedTransport();
    const connection = createConnection(transport);
    await connection.start();
    push("[1,2,3]\n");
    const sent = await waitForSent(1);
    expect(sent[0]).toHaveLength(3);
  });

  it("sends back the response of an invalid frame and reports it", async () => {
    const { transport, waitForSent, push } = createLineFedTransport();
    const connection = createConnection(transport);
    const errors: Error[] = [];
    connection.onError((error) => errors.push(error));
    await connection.start();
    push("not json\n[]\n");
    const sent = await waitForSent(2);
    expect(sent[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(sent[1]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(errors.every((error) => InvalidFrameError.isInstance(error))).toBe(true);
    expect(errors).toHaveLength(2);
  });
});
