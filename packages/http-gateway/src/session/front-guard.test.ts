import { createMemoryTransportPair, type Frame } from "@patchbay/jsonrpc-core";
import { createManualClock, decodeRelayedResult } from "@patchbay/jsonrpc-core/testing";
import { createIdGenerator, readTraceContext, startRequestTrace } from "@patchbay/telemetry";
import { describe, expect, it } from "vitest";
import { type FrontRequestEnd, guardFrontTransport } from "./front-guard.js";

async function setUp(options: { requestTimeoutMs?: number; maxResultBytes?: number } = {}) {
  const clock = createManualClock();
  const [client, front] = createMemoryTransportPair();
  const ends: FrontRequestEnd[] = [];
  const guarded = guardFrontTransport(front, {
    requestTimeoutMs: options.requestTimeoutMs ?? 0,
    maxResultBytes: options.maxResultBytes ?? 1_000_000,
    clock,
    onRequestEnd: (end) => ends.push(end),
  });
  const toRouter: Frame[] = [];
  const toClient: Frame[] = [];
  // Waiting for frames is waiting for the listener that receives them, not polling.
  let waiters: (() => void)[] = [];
  const receive = (list: Frame[]) => (frame: Frame) => {
    list.push(frame);
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  guarded.onFrame(receive(toRouter));
  client.onFrame(receive(toClient));
  await Promise.all([client.start(), guarded.start()]);
  const arrived = (list: Frame[], count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (list.length >= count ? resolve() : waiters.push(check));
      check();
    });
  return { clock, client, guarded, ends, toRouter, toClient, arrived };
}

describe("guardFrontTransport", () => {
  it("gives a request without a trace a traceparent, whose trace id the log gets", async () => {
    const { client, guarded, ends, toRouter, arrived } = await setUp();
    await client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a__b" } });
    await arrived(toRouter, 1);
    const traceparent = (toRouter[0] as unknown as { params: { _meta: { traceparent: string } } })
      .params._meta.traceparent;
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await guarded.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(ends).toEqual([
      expect.objectContaining({
        method: "tools/call",
        name: "a__b",
        status: "ok",
        traceId: traceparent.split("-")[1],
      }),
    ]);
  });

  it("hands its trace to the router with copies of the request, keys and _meta kept", async () => {
    const { client, guarded, ends, toRouter, arrived } = await setUp();
    const params = { name: "a__b", _meta: { progressToken: 7 }, arguments: { x: 1 } };
    await client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
    await arrived(toRouter, 1);
    const received = toRouter[0] as unknown as {
      params: typeof params & { _meta: { traceparent?: string } };
    };
    expect(Object.keys(received)).toEqual(["jsonrpc", "id", "method", "params"]);
    expect(Object.keys(received.params)).toEqual(["name", "_meta", "arguments"]);
    expect(received.params).toMatchObject({ _meta: { progressToken: 7 }, arguments: { x: 1 } });
    expect(params._meta).toEqual({ progressToken: 7 });
    const traceparent = String(received.params._meta.traceparent);
    const handed = readTraceContext(received.params);
    expect(handed).toMatchObject({ traceId: traceparent.split("-")[1] });
    // Made as telemetry makes a trace from its own id pool, which it continues without checks.
    const pooled = startRequestTrace(undefined, createIdGenerator());
    expect(Object.getPrototypeOf(handed)).toBe(Object.getPrototypeOf(pooled));
    await guarded.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(ends[0]?.traceId).toBe(handed?.traceId);
  });

  it("keeps a request's own trace", async () => {
    const { client, guarded, ends, toRouter, arrived } = await setUp();
    const traceparent = `00-${"ab".repeat(16)}-${"cd".repeat(8)}-01`;
    const request = {
      jsonrpc: "2.0",
      id: 2,
      method: "ping",
      params: { _meta: { traceparent } },
    } as const;
    await client.send(request);
    await arrived(toRouter, 1);
    expect(toRouter[0]).toEqual(request);
    await guarded.send({ jsonrpc: "2.0", id: 2, result: {} });
    expect(ends[0]?.traceId).toBe("ab".repeat(16));
  });

  it("tags backend errors with data.server", async () => {
    const { client, guarded, toClient, toRouter, arrived } = await setUp();
    await client.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "x" } });
    await arrived(toRouter, 1);
    await guarded.send({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32000,
        message: "boom",
        data: { backend: "github", originalError: { code: 1 } },
      },
    });
    await arrived(toClient, 1);
    expect(toClient[0]).toMatchObject({
      error: { data: { server: "github", backend: "github", originalError: { code: 1 } } },
    });
  });

  it("answers a timed-out request once, cancels it at the router and drops the late answer", async () => {
    const { clock, client, guarded, toClient, toRouter, arrived } = await setUp({
      requestTimeoutMs: 1_000,
    });
    await client.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "slow" } });
    await arrived(toRouter, 1);
    clock.advance(1_000);
    await arrived(toClient, 1);
    expect(toClient[0]).toMatchObject({ id: 4, error: { code: -32001 } });
    expect(toRouter[1]).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: 4 },
    });
    await guarded.send({ jsonrpc: "2.0", id: 4, result: {} });
    await client.send({ jsonrpc: "2.0", id: 5, method: "ping" });
    await arrived(toRouter, 3);
    await guarded.send({ jsonrpc: "2.0", id: 5, result: {} });
    await arrived(toClient, 2);
    expect(toClient.map((frame) => (frame as { id: number }).id)).toEqual([4, 5]);
  });

  it("ends a request the client cancels once, as cancelled after the time until the cancel", async () => {
    const { clock, client, guarded, ends, toClient, toRouter, arrived } = await setUp();
    await client.send({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "slow" } });
    await arrived(toRouter, 1);
    clock.advance(250);
    const cancel = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 6 },
    } as const;
    await client.send(cancel);
    await arrived(toRouter, 2);
    expect(toRouter[1]).toEqual(cancel);
    expect(ends).toEqual([
      expect.objectContaining({
        method: "tools/call",
        name: "slow",
        status: "cancelled",
        durationMs: 250,
      }),
    ]);
    expect(guarded.pending).toBe(0);
    // A late answer is dropped, and closing logs nothing more.
    await guarded.send({ jsonrpc: "2.0", id: 6, error: { code: -32800, message: "cancelled" } });
    await client.send({ jsonrpc: "2.0", id: 7, method: "ping" });
    await arrived(toRouter, 3);
    await guarded.send({ jsonrpc: "2.0", id: 7, result: {} });
    await arrived(toClient, 1);
    expect(toClient.map((frame) => (frame as { id: number }).id)).toEqual([7]);
    await guarded.close();
    expect(ends.map((end) => end.status)).toEqual(["cancelled", "ok"]);
  });

  describe("maxResultBytes", () => {
    /** A result as a relay keeps it (decoded from a stdio line with `relayLargeResults`). */
    const relayedResult = (text: string): unknown => decodeRelayedResult(text, { id: 9 }).result;

    it("fails a larger result with -32012 naming its size, and passes one within it", async () => {
      const { client, guarded, toClient, arrived } = await setUp({ maxResultBytes: 100 });
      await client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } });
      await client.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "a" } });
      await guarded.send({ jsonrpc: "2.0", id: 1, result: { text: "x".repeat(200) } });
      await guarded.send({ jsonrpc: "2.0", id: 2, result: { text: "x" } });
      await arrived(toClient, 2);
      expect(toClient[0]).toMatchObject({
        id: 1,
        error: { code: -32012, message: expect.stringContaining("the result of 211 bytes") },
      });
      expect(toClient[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { text: "x" } });
    });

    it("measures a relayed result by the text it will be written as, without serializing it", async () => {
      // Spaces that JSON.stringify would not write: the relay sends them, so they count.
      const text = `{ "text" : "${"é".repeat(70_000)}" }`;
      const { client, guarded, toClient, arrived } = await setUp({ maxResultBytes: 100_000 });
      await client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } });
      await guarded.send({ jsonrpc: "2.0", id: 1, result: relayedResult(text) });
      await arrived(toClient, 1);
      expect(toClient[0]).toMatchObject({
        id: 1,
        error: {
          code: -32012,
          message: expect.stringContaining(`the result of ${Buffer.byteLength(text)} bytes`),
        },
      });
      expect(Buffer.byteLength(text)).not.toBe(Buffer.byteLength(JSON.stringify(JSON.parse(text))));
    });
  });
});
