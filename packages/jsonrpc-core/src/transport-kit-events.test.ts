import { describe, expect, it } from "vitest";
import type { Frame } from "./messages.js";
import type { FrameInfo, TransportCloseEvent } from "./transport.js";
import { TransportEvents } from "./transport-kit.js";

const ping: Frame = { jsonrpc: "2.0", id: 0, method: "ping" };
const pong: Frame = { jsonrpc: "2.0", id: 0, result: {} };

describe("TransportEvents", () => {
  it("holds frames until start, then delivers them in order with their info", () => {
    const events = new TransportEvents();
    const received: [Frame, FrameInfo][] = [];
    events.onFrame((frame, info) => received.push([frame, info]));
    events.emitFrame(ping, { extra: { a: 1 } });
    events.emitFrame(pong);
    expect(received).toEqual([]);
    expect(events.started).toBe(false);
    events.start();
    expect(events.started).toBe(true);
    expect(received).toEqual([
      [ping, { extra: { a: 1 } }],
      [pong, {}],
    ]);
    events.emitFrame(ping);
    expect(received).toHaveLength(3);
  });

  it("does not deliver held frames twice when start is called again", () => {
    const events = new TransportEvents();
    let count = 0;
    events.onFrame(() => {
      count += 1;
    });
    events.emitFrame(ping);
    events.start();
    events.start();
    expect(count).toBe(1);
  });

  it("calls every listener, and the same function subscribed twice twice, each removable alone", () => {
    const events = new TransportEvents();
    events.start();
    const calls: string[] = [];
    const listener = () => calls.push("shared");
    const first = events.onFrame(listener);
    events.onFrame(listener);
    events.onFrame(() => calls.push("other"));
    events.emitFrame(ping);
    expect(calls).toEqual(["shared", "shared", "other"]);
    first();
    first();
    calls.length = 0;
    events.emitFrame(ping);
    expect(calls).toEqual(["shared", "other"]);
  });

  it("hands a frame listener the frame and its info, and error and close listeners one argument", () => {
    const events = new TransportEvents();
    events.start();
    const argumentCounts: number[] = [];
    const count = (...args: unknown[]) => argumentCounts.push(args.length);
    events.onFrame(count);
    events.onError(count);
    events.onClose(count);
    events.emitFrame(ping);
    events.emitError(new Error("bad line"));
    events.emitClose({ initiator: "local" });
    expect(argumentCounts).toEqual([2, 1, 1]);
  });

  it("reports what a frame listener throws to the error listeners and keeps delivering", () => {
    const events = new TransportEvents();
    events.start();
    const errors: Error[] = [];
    let delivered = 0;
    events.onError((error) => errors.push(error));
    events.onFrame(() => {
      throw "listener failed";
    });
    events.onFrame(() => {
      delivered += 1;
    });
    events.emitFrame(ping);
    expect(delivered).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(Error);
    expect(errors[0]?.message).toBe("listener failed");
  });

  it("ignores what an error listener throws", () => {
    const events = new TransportEvents();
    const seen: Error[] = [];
    events.onError(() => {
      throw new Error("error listener failed");
    });
    events.onError((error) => seen.push(error));
    const failure = new Error("boom");
    expect(() => events.emitError(failure)).not.toThrow();
    expect(seen).toEqual([failure]);
  });

  it("emits exactly one close event, reporting whether a call closed", () => {
    const events = new TransportEvents();
    const closes: TransportCloseEvent[] = [];
    events.onClose((event) => closes.push(event));
    expect(events.closed).toBe(false);
    expect(events.emitClose({ initiator: "remote" })).toBe(true);
    expect(events.emitClose({ initiator: "local" })).toBe(false);
    expect(closes).toEqual([{ initiator: "remote" }]);
    expect(events.closed).toBe(true);
  });

  it("reports what a close listener throws to the error listeners and still calls the others", () => {
    const events = new TransportEvents();
    const errors: Error[] = [];
    let closed = 0;
    events.onError((error) => errors.push(error));
    events.onClose(() => {
      throw new Error("close listener failed");
    });
    events.onClose(() => {
      closed += 1;
    });
    events.emitClose({ initiator: "local" });
    expect(closed).toBe(1);
    expect(errors.map((error) => error.message)).toEqual(["close listener failed"]);
  });

  it("drops held and later frames once closed, and never calls a close listener added after", () => {
    const events = new TransportEvents();
    const frames: Frame[] = [];
    events.onFrame((frame) => frames.push(frame));
    events.emitFrame(ping);
    events.emitClose({ initiator: "error", error: new Error("gone") });
    events.start();
    events.emitFrame(pong);
    let lateClose = 0;
    events.onClose(() => {
      lateClose += 1;
    });
    events.emitClose({ initiator: "local" });
    expect(frames).toEqual([]);
    expect(lateClose).toBe(0);
  });

  it("releases its listeners after the close event", () => {
    const events = new TransportEvents();
    events.start();
    const errors: Error[] = [];
    events.onError((error) => errors.push(error));
    events.emitClose({ initiator: "local" });
    events.emitError(new Error("after close"));
    expect(errors).toEqual([]);
  });
});
