import { describe, expect, it } from "vitest";
import { deferred } from "../../test/deferred.js";
import { InvalidFrameError, TransportError } from "../errors/transport-errors.js";
import type { Frame, JSONRPCErrorResponse } from "../messages.js";
import type { FrameInfo, Transport } from "../transport.js";
import { fromSdkTransport } from "./from-sdk-transport.js";
import type { SdkTransportLike } from "./sdk-transport-like.js";
import { toSdkTransport } from "./to-sdk-transport.js";

/** A Patchbay transport the test drives by hand. */
function createManualTransport() {
  const sent: Frame[] = [];
  let frameListener: (frame: Frame, info: FrameInfo) => void = () => {};
  let errorListener: (error: Error) => void = () => {};
  const transport: Transport = {
    start: async () => {},
    close: async () => {},
    send: async (frame) => {
      sent.push(frame);
    },
    onFrame: (listener) => {
      frameListener = listener;
      return () => {};
    },
    onError: (listener) => {
      errorListener = listener;
      return () => {};
    },
    onClose: () => () => {},
  };
  return {
    transport,
    sent,
    deliver: (frame: Frame, info: FrameInfo = {}) => frameListener(frame, info),
    fail: (error: Error) => errorListener(error),
  };
}

/** An SDK-shaped transport the test drives by hand. */
function createManualSdkTransport() {
  const sent: object[] = [];
  const sdk: SdkTransportLike = {
    start: async () => {},
    close: async () => {},
    send: async (message) => {
      sent.push(message);
    },
  };
  return { sdk, sent };
}

const invalidResponse: JSONRPCErrorResponse = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32600, message: "Invalid Request" },
};

describe("toSdkTransport", () => {
  it("delivers a batch message by message and sends its rejections back as a batch", async () => {
    const manual = createManualTransport();
    const adapter = toSdkTransport(manual.transport);
    const received: unknown[] = [];
    adapter.onmessage = (message) => received.push(message);
    manual.deliver(
      [
        { jsonrpc: "2.0", method: "a" },
        { jsonrpc: "2.0", id: 1, method: "b" },
      ],
      { rejected: [invalidResponse] },
    );
    expect(received).toHaveLength(2);
    await Promise.resolve();
    expect(manual.sent).toEqual([[invalidResponse]]);
  });

  it("hands info.extra to onmessage as the SDK's extra", () => {
    const manual = createManualTransport();
    const adapter = toSdkTransport(manual.transport);
    const extras: unknown[] = [];
    adapter.onmessage = (_message, extra) => extras.push(extra);
    manual.deliver({ jsonrpc: "2.0", method: "a" }, { extra: { authInfo: { token: "t" } } });
    expect(extras).toEqual([{ authInfo: { token: "t" } }]);
  });

  it("answers an invalid frame and passes the error to onerror", async () => {
    const manual = createManualTransport();
    const adapter = toSdkTransport(manual.transport);
    const errors: Error[] = [];
    adapter.onerror = (error) => errors.push(error);
    manual.fail(new InvalidFrameError("bad", invalidResponse));
    expect(errors).toHaveLength(1);
    await Promise.resolve();
    expect(manual.sent).toEqual([invalidResponse]);
  });
});

describe("fromSdkTransport", () => {
  it("sends a batch message by message", async () => {
    const { sdk, sent } = createManualSdkTransport();
    const transport = fromSdkTransport(sdk);
    await transport.send([
      { jsonrpc: "2.0", method: "a" },
      { jsonrpc: "2.0", method: "b" },
    ]);
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "a" },
      { jsonrpc: "2.0", method: "b" },
    ]);
  });

  it("reports an invalid incoming message as InvalidFrameError instead of delivering it", async () => {
    const { sdk } = createManualSdkTransport();
    const transport = fromSdkTransport(sdk);
    const errors: Error[] = [];
    const frames: Frame[] = [];
    transport.onError((error) => errors.push(error));
    transport.onFrame((frame) => frames.push(frame));
    await transport.start();
    sdk.onmessage?.({ jsonrpc: "1.0", id: 3, method: "x" } as never);
    sdk.onmessage?.({ jsonrpc: "2.0", method: "ok" });
    expect(frames).toEqual([{ jsonrpc: "2.0", method: "ok" }]);
    expect(InvalidFrameError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as InvalidFrameError).response).toMatchObject({ id: 3 });
  });

  it("wraps a send failure in TransportError and rejects send after close", async () => {
    const { sdk } = createManualSdkTransport();
    sdk.send = async () => {
      throw new Error("Not connected");
    };
    const transport = fromSdkTransport(sdk);
    const failure = await transport
      .send({ jsonrpc: "2.0", method: "a" })
      .catch((caught: unknown) => caught);
    expect(TransportError.isInstance(failure)).toBe(true);
    await transport.close();
    const afterClose = await transport
      .send({ jsonrpc: "2.0", method: "a" })
      .catch((caught: unknown) => caught);
    expect(TransportError.isInstance(afterClose)).toBe(true);
  });

  it("emits one local close event even when the SDK transport never calls onclose", async () => {
    const { sdk } = createManualSdkTransport();
    const transport = fromSdkTransport(sdk);
    const closed = deferred<string>();
    let count = 0;
    transport.onClose((event) => {
      count++;
      closed.resolve(event.initiator);
    });
    await Promise.all([transport.close(), transport.close()]);
    sdk.onclose?.();
    expect(await closed.promise).toBe("local");
    expect(count).toBe(1);
  });

  it("holds messages that arrive before start() and delivers them to a listener added just before it", async () => {
    const { sdk } = createManualSdkTransport();
    const transport = fromSdkTransport(sdk);
    sdk.onmessage?.({ jsonrpc: "2.0", method: "early" });
    const frames: Frame[] = [];
    transport.onFrame((frame) => frames.push(frame));
    expect(frames).toEqual([]);
    await transport.start();
    expect(frames).toEqual([{ jsonrpc: "2.0", method: "early" }]);
  });

  it("turns the SDK's SyntaxError into an InvalidFrameError owing -32700, and its schema error into one owing -32600", () => {
    const { sdk } = createManualSdkTransport();
    const transport = fromSdkTransport(sdk);
    const errors: Error[] = [];
    transport.onError((error) => errors.push(error));
    const syntax = new SyntaxError("Unexpected token 'h'");
    const schema = Object.assign(new Error("[]"), { name: "ZodError", issues: [] });
    const other = new Error("Not Acceptable");
    sdk.onerror?.(syntax);
    sdk.onerror?.(schema);
    sdk.onerror?.(other);
    expect(errors.map((error) => InvalidFrameError.isInstance(error))).toEqual([true, true, false]);
    expect((errors[0] as InvalidFrameError).response).toMatchObject({
      id: null,
      error: { code: -32700 },
    });
    expect((errors[0] as InvalidFrameError).cause).toBe(syntax);
    expect((errors[1] as InvalidFrameError).response).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect(errors[2]).toBe(other);
  });

  it("refuses an SDK transport that already has an onmessage handler", () => {
    const { sdk } = createManualSdkTransport();
    sdk.onmessage = () => {};
    expect(() => fromSdkTransport(sdk)).toThrow(/already has an onmessage handler/);
  });

  it("rejects start() with a TransportError that says the SDK transport must not be started yet", async () => {
    const { sdk } = createManualSdkTransport();
    const refusal = new Error("StdioServerTransport already started!");
    sdk.start = async () => {
      throw refusal;
    };
    const transport = fromSdkTransport(sdk);
    const failure = await transport.start().catch((caught: unknown) => caught);
    expect(TransportError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/needs a transport that was not started yet/);
    expect((failure as Error).cause).toBe(refusal);
  });
});
