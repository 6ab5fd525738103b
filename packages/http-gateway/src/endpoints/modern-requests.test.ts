import type { JSONRPCRequest, JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import type { ModernEndpoint } from "@patchbay/router";
import type { ModernMessageContext } from "@patchbay/transport-http";
import { describe, expect, it } from "vitest";
import type { FrontRequestEnd } from "../session/front-guard.js";
import { modernRequests } from "./modern-requests.js";

/** An endpoint whose calls wait until the test answers them, recording the signal each got. */
function slowEndpoint() {
  const calls: {
    signal: AbortSignal;
    answer: (response: JSONRPCResponse) => void;
  }[] = [];
  const endpoint: ModernEndpoint = {
    protocolVersions: ["2026-07-28"],
    handle: (_message, context) =>
      new Promise((resolve) => calls.push({ signal: context.signal, answer: resolve })),
    heldElsewhere: async () => undefined,
  };
  return { endpoint, calls };
}

function setUp(requestTimeoutMs: number) {
  const clock = createManualClock();
  const { endpoint, calls } = slowEndpoint();
  const ends: FrontRequestEnd[] = [];
  const handler = modernRequests(endpoint, {
    maxResultBytes: 1_000_000,
    requestTimeoutMs,
    clock,
    onRequestEnd: (end) => ends.push(end),
  });
  const client = new AbortController();
  const context: ModernMessageContext = {
    signal: client.signal,
    info: {},
    notify: () => {},
  };
  const call = (id: number) => {
    const message: JSONRPCRequest = {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "slow" },
    };
    return handler.handle(message, context);
  };
  return { clock, calls, ends, client, call };
}

describe("modern requests and limits.requestTimeoutMs", () => {
  it("answers a request still running after requestTimeoutMs with -32001 and aborts its call", async () => {
    const { clock, calls, ends, call } = setUp(300);
    const answered = call(7);
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    clock.advance(299);
    expect(calls[0]?.signal.aborted).toBe(false);
    clock.advance(1);
    expect(await answered).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32001, message: "request timed out after 300 ms (limits.requestTimeoutMs)" },
    });
    // The router sees the abort (and tells the backend notifications/cancelled).
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(ends).toMatchObject([{ method: "tools/call", name: "slow", status: -32001 }]);
    // A late answer is dropped: nothing more is reported.
    calls[0]?.answer({ jsonrpc: "2.0", id: 7, result: { content: [] } });
    await Promise.resolve();
    expect(ends).toHaveLength(1);
  });

  it("answers in time without a timeout error, and leaves no timer behind", async () => {
    const { clock, calls, call } = setUp(300);
    const answered = call(8);
    await Promise.resolve();
    calls[0]?.answer({ jsonrpc: "2.0", id: 8, result: { content: [] } });
    expect(await answered).toEqual({ jsonrpc: "2.0", id: 8, result: { content: [] } });
    expect(calls[0]?.signal.aborted).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it("passes the client's going away on to the call", async () => {
    const { calls, client, call } = setUp(300);
    void call(9);
    await Promise.resolve();
    client.abort(new Error("client closed the stream"));
    expect(calls[0]?.signal.aborted).toBe(true);
  });

  it("reports a request whose client closed its stream once, as cancelled at that time", async () => {
    const { clock, calls, client, call, ends } = setUp(0);
    const answered = call(11);
    await Promise.resolve();
    clock.advance(120);
    client.abort(new Error("client closed the stream"));
    clock.advance(30);
    calls[0]?.answer({ jsonrpc: "2.0", id: 11, error: { code: -32000, message: "cancelled" } });
    await answered;
    expect(ends).toEqual([
      {
        method: "tools/call",
        name: "slow",
        status: "cancelled",
        backend: undefined,
        durationMs: 120,
        traceId: undefined,
      },
    ]);
  });

  it("sets no timer when requestTimeoutMs is 0", async () => {
    const { clock, calls, call } = setUp(0);
    void call(10);
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });
});
