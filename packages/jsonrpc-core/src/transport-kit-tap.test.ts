import { describe, expect, it } from "vitest";
import { TransportError } from "./errors/transport-errors.js";
import { createMemoryTransportPair } from "./memory/memory-transport.js";
import type { Frame, JSONRPCMessage } from "./messages.js";
import type { FrameInfo, SendOptions, Transport, TransportCloseEvent } from "./transport.js";
import { TransportEvents, type TransportTap, tapTransport } from "./transport-kit.js";

const request = (id: number | string): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });
const answer = (id: number | string): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });
const note: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/initialized" };

/** A transport driven by the test: what it receives is emitted by hand, what is sent is kept. */
function createScriptedTransport() {
  const events = new TransportEvents();
  const sent: [Frame, SendOptions | undefined][] = [];
  let starts = 0;
  let closes = 0;
  let failSend: (() => Promise<void>) | undefined;
  const transport: Transport = {
    async start() {
      starts += 1;
      events.start();
    },
    send(frame, options) {
      if (failSend !== undefined) return failSend();
      sent.push([frame, options]);
      return Promise.resolve();
    },
    async close() {
      closes += 1;
      events.emitClose({ initiator: "local" });
    },
    onFrame: (listener) => events.onFrame(listener),
    onError: (listener) => events.onError(listener),
    onClose: (listener) => events.onClose(listener),
  };
  return {
    transport,
    events,
    sent,
    counts: () => ({ starts, closes }),
    failSendWith(fail: () => Promise<void>) {
      failSend = fail;
    },
  };
}

/** Collects what reaches a transport's listeners. */
function record(transport: Transport) {
  const frames: [Frame, FrameInfo][] = [];
  const errors: Error[] = [];
  const closes: TransportCloseEvent[] = [];
  transport.onFrame((frame, info) => frames.push([frame, info]));
  transport.onError((error) => errors.push(error));
  transport.onClose((event) => closes.push(event));
  return { frames, errors, closes };
}

describe("tapTransport", () => {
  it("forwards start, send and close to the inner transport and delivers its frames unchanged", async () => {
    const [client, server] = createMemoryTransportPair();
    const tapped = tapTransport(client, {});
    const seen = record(tapped);
    const serverFrames: Frame[] = [];
    server.onFrame((frame) => serverFrames.push(frame));
    await server.start();
    await tapped.start();
    await tapped.send(request(1), { relatedRequestId: 7 });
    const arrived = new Promise<void>((resolve) => tapped.onFrame(() => resolve()));
    const batch: Frame = [request(2), note];
    await server.send(batch, { relatedRequestId: 1 });
    await arrived;
    expect(serverFrames).toEqual([request(1)]);
    expect(seen.frames).toHaveLength(1);
    expect(seen.frames[0]?.[0]).toBe(batch);
    expect(seen.frames[0]?.[1]).toEqual({ relatedRequestId: 1 });
    await tapped.close();
    expect(seen.closes).toEqual([{ initiator: "local" }]);
    await expect(tapped.send(request(3))).rejects.toBeInstanceOf(TransportError);
  });

  it("passes send options to the inner transport, and a replaced frame goes with the same options", async () => {
    const inner = createScriptedTransport();
    const tapped = tapTransport(inner.transport, {
      outgoing: (frame) => ("id" in frame && frame.id === 0 ? answer("replaced") : frame),
    });
    await tapped.send(answer(0), { relatedRequestId: "" });
    await tapped.send(answer(1));
    expect(inner.sent).toEqual([
      [answer("replaced"), { relatedRequestId: "" }],
      [answer(1), undefined],
    ]);
  });

  it("lets the incoming hook replace or drop a frame, and treats ids 0 and empty string as ids", async () => {
    const inner = createScriptedTransport();
    const seenByHook: Frame[] = [];
    const tapped = tapTransport(inner.transport, {
      incoming(frame) {
        seenByHook.push(frame);
        if (Array.isArray(frame) || !("id" in frame)) return frame;
        if (frame.id === "") return undefined;
        return frame.id === 0 ? { ...frame, id: "zero" } : frame;
      },
    });
    const seen = record(tapped);
    await tapped.start();
    inner.events.emitFrame(request(0));
    inner.events.emitFrame(request(""));
    inner.events.emitFrame(note, { extra: { kept: true } });
    expect(seenByHook).toEqual([request(0), request(""), note]);
    expect(seen.frames).toEqual([
      [{ ...request(0), id: "zero" }, {}],
      [note, { extra: { kept: true } }],
    ]);
  });

  it("stops calling an incoming hook set to undefined, and delivers every later frame untouched", async () => {
    const inner = createScriptedTransport();
    const seenByHook: Frame[] = [];
    const hooks: TransportTap = {
      incoming(frame) {
        seenByHook.push(frame);
        hooks.incoming = undefined;
        return undefined;
      },
    };
    const tapped = tapTransport(inner.transport, hooks);
    const seen = record(tapped);
    await tapped.start();
    inner.events.emitFrame(request(1));
    inner.events.emitFrame(request(2));
    inner.events.emitFrame(note);
    expect(seenByHook).toEqual([request(1)]);
    expect(seen.frames).toEqual([
      [request(2), {}],
      [note, {}],
    ]);
  });

  it("hands a batch to the hooks whole, so they may keep part of it", async () => {
    const inner = createScriptedTransport();
    const keepRequests = (frame: Frame): Frame | undefined => {
      if (!Array.isArray(frame)) return frame;
      const kept = frame.filter((message) => "method" in message && "id" in message);
      return kept.length === 0 ? undefined : kept;
    };
    const tapped = tapTransport(inner.transport, {
      incoming: keepRequests,
      outgoing: keepRequests,
    });
    const seen = record(tapped);
    await tapped.start();
    inner.events.emitFrame([request(0), note, request("")], { rejected: [] });
    inner.events.emitFrame([note]);
    await tapped.send([answer(0), request(5)]);
    await tapped.send([note]);
    expect(seen.frames).toEqual([[[request(0), request("")], { rejected: [] }]]);
    expect(inner.sent).toEqual([[[request(5)], undefined]]);
  });

  it("resolves a send the outgoing hook drops without sending anything", async () => {
    const inner = createScriptedTransport();
    const tapped = tapTransport(inner.transport, {
      outgoing: (frame) => ("method" in frame ? frame : undefined),
    });
    await expect(tapped.send(answer(0))).resolves.toBeUndefined();
    await tapped.send(note);
    expect(inner.sent).toEqual([[note, undefined]]);
  });

  it("settles send with the promise of an outgoing hook that sent the frame itself", async () => {
    const inner = createScriptedTransport();
    const failure = new Error("the hook failed");
    const tapped = tapTransport(inner.transport, {
      outgoing(frame, options) {
        if ("id" in frame && frame.id === "") return Promise.reject(failure);
        return inner.transport.send(answer("sent by the hook"), options).then(() => {});
      },
    });
    await tapped.send(request(0), { relatedRequestId: 0 });
    await expect(tapped.send(request(""))).rejects.toBe(failure);
    expect(inner.sent).toEqual([[answer("sent by the hook"), { relatedRequestId: 0 }]]);
  });

  it("fails only the send when the outgoing hook or the inner send throws", async () => {
    const inner = createScriptedTransport();
    const hookFailure = new Error("cannot prepare");
    const tapped = tapTransport(inner.transport, {
      outgoing(frame) {
        if ("method" in frame && frame.method === "bad") throw hookFailure;
        return frame;
      },
    });
    await expect(tapped.send({ jsonrpc: "2.0", method: "bad" })).rejects.toBe(hookFailure);
    const sendFailure = new TransportError("the channel broke");
    inner.failSendWith(() => {
      throw sendFailure;
    });
    await expect(tapped.send(note)).rejects.toBe(sendFailure);
    const rejection = new TransportError("rejected");
    inner.failSendWith(() => Promise.reject(rejection));
    await expect(tapped.send(note)).rejects.toBe(rejection);
  });

  it("forwards the inner transport's errors to the error hook, then to every error listener", async () => {
    const inner = createScriptedTransport();
    const order: string[] = [];
    const tapped = tapTransport(inner.transport, {
      error: (error) => order.push(`hook ${error.message}`),
    });
    tapped.onError((error) => order.push(`first ${error.message}`));
    tapped.onError((error) => order.push(`second ${error.message}`));
    inner.events.emitError(new Error("bad line"));
    expect(order).toEqual(["hook bad line", "first bad line", "second bad line"]);
  });

  it("reports what the incoming hook throws to the error listeners and keeps delivering", async () => {
    const inner = createScriptedTransport();
    const tapped = tapTransport(inner.transport, {
      incoming(frame) {
        if ("id" in frame && frame.id === 0) throw new Error("hook failed on 0");
        return frame;
      },
    });
    const seen = record(tapped);
    await tapped.start();
    inner.events.emitFrame(request(0));
    inner.events.emitFrame(request(1));
    expect(seen.errors.map((error) => error.message)).toEqual(["hook failed on 0"]);
    expect(seen.frames).toEqual([[request(1), {}]]);
  });

  it("emits one close event after the closed hook, however often and from whichever side it closes", async () => {
    const [client, server] = createMemoryTransportPair();
    const order: string[] = [];
    const tapped = tapTransport(client, {
      closed: (event) => order.push(`hook ${event.initiator}`),
    });
    tapped.onClose((event) => order.push(`listener ${event.initiator}`));
    await tapped.start();
    await server.start();
    await server.close();
    await Promise.all([tapped.close(), tapped.close()]);
    await tapped.close();
    expect(order).toEqual(["hook remote", "listener remote"]);
  });

  it("closes once when closed locally twice, and never calls a close listener added after", async () => {
    const inner = createScriptedTransport();
    let hookCalls = 0;
    const tapped = tapTransport(inner.transport, {
      closed: () => {
        hookCalls += 1;
      },
    });
    const seen = record(tapped);
    await tapped.close();
    await tapped.close();
    let late = 0;
    tapped.onClose(() => {
      late += 1;
    });
    expect(seen.closes).toEqual([{ initiator: "local" }]);
    expect(hookCalls).toBe(1);
    expect(late).toBe(0);
    expect(inner.counts().closes).toBe(2);
  });

  it("stops delivering to an unsubscribed listener and keeps the others", async () => {
    const inner = createScriptedTransport();
    const tapped = tapTransport(inner.transport, {});
    await tapped.start();
    const calls: string[] = [];
    const listener = (frame: Frame) => calls.push(`shared ${"id" in frame ? frame.id : ""}`);
    const first = tapped.onFrame(listener);
    tapped.onFrame(listener);
    const stopErrors = tapped.onError(() => calls.push("error"));
    const stopClose = tapped.onClose(() => calls.push("close"));
    inner.events.emitFrame(request(0));
    first();
    first();
    stopErrors();
    stopClose();
    inner.events.emitFrame(request(1));
    inner.events.emitError(new Error("ignored"));
    await tapped.close();
    expect(calls).toEqual(["shared 0", "shared 0", "shared 1"]);
  });

  it("delivers what the decorator emits itself to the listeners, past the incoming hook", async () => {
    const inner = createScriptedTransport();
    const hooked: Frame[] = [];
    const tapped = tapTransport(inner.transport, {
      incoming(frame) {
        hooked.push(frame);
        return frame;
      },
    });
    const seen = record(tapped);
    tapped.emitFrame(note);
    tapped.emitFrame(request(0), { relatedRequestId: "" });
    tapped.emitError(new Error("made here"));
    expect(hooked).toEqual([]);
    expect(seen.frames).toEqual([
      [note, {}],
      [request(0), { relatedRequestId: "" }],
    ]);
    expect(seen.errors.map((error) => error.message)).toEqual(["made here"]);
  });

  it("calls the hooks as methods, so a class instance can be the tap", async () => {
    class CountingTap implements TransportTap {
      incomingFrames = 0;
      outgoingFrames = 0;
      starts = 0;
      incoming(frame: Frame): Frame {
        this.incomingFrames += 1;
        return frame;
      }
      outgoing(frame: Frame): Frame {
        this.outgoingFrames += 1;
        return frame;
      }
      started(): void {
        this.starts += 1;
      }
    }
    const inner = createScriptedTransport();
    const counting = new CountingTap();
    const tapped = tapTransport(inner.transport, counting);
    await tapped.start();
    inner.events.emitFrame(request(0));
    await tapped.send(answer(0));
    expect(counting).toMatchObject({ incomingFrames: 1, outgoingFrames: 1, starts: 1 });
  });

  it("calls the started hook once the inner transport has started", async () => {
    const inner = createScriptedTransport();
    const order: string[] = [];
    const tapped = tapTransport(inner.transport, {
      started: () => order.push(`started after ${inner.counts().starts} start`),
    });
    await tapped.start();
    expect(order).toEqual(["started after 1 start"]);
  });
});
