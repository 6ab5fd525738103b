import { describe, expect, it } from "vitest";
import {
  createIdGenerator,
  injectTraceContext,
  readTraceContext,
  startRequestTrace,
} from "./trace-context.js";

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const spanId = "00f067aa0ba902b7";
const traceparent = `00-${traceId}-${spanId}-01`;

/** A random source that counts up from `start`, so ids are predictable. */
function countingRandom(start = 1) {
  let next = start;
  return (bytes: Uint8Array) => {
    for (let index = 0; index < bytes.length; index += 1) {
      bytes[index] = next & 0xff;
      next += 1;
    }
  };
}

describe("readTraceContext", () => {
  it("reads traceparent and tracestate from params._meta", () => {
    expect(
      readTraceContext({ name: "x", _meta: { traceparent, tracestate: "congo=t61" } }),
    ).toEqual({
      traceId,
      spanId,
      traceFlags: 1,
      traceState: "congo=t61",
    });
  });

  it("returns undefined without _meta, with a malformed traceparent, or for positional params", () => {
    expect(readTraceContext({ name: "x" })).toBeUndefined();
    expect(readTraceContext(undefined)).toBeUndefined();
    expect(readTraceContext({ _meta: { traceparent: traceparent.toUpperCase() } })).toBeUndefined();
    expect(readTraceContext({ _meta: { traceparent: 7 } })).toBeUndefined();
    expect(readTraceContext([{ _meta: { traceparent } }])).toBeUndefined();
  });

  it("drops an invalid tracestate but keeps the traceparent", () => {
    expect(readTraceContext({ _meta: { traceparent, tracestate: "a=1,a=2" } })).toEqual({
      traceId,
      spanId,
      traceFlags: 1,
    });
  });
});

describe("startRequestTrace", () => {
  it("starts a new sampled trace from the injected random source when there is no parent", () => {
    const trace = startRequestTrace(undefined, createIdGenerator(countingRandom()));
    expect(trace).toEqual({
      traceId: "0102030405060708090a0b0c0d0e0f10",
      spanId: "1112131415161718",
      traceFlags: 1,
    });
  });

  it("continues the parent's trace with a new span whose parent is the caller's span", () => {
    const trace = startRequestTrace(
      { traceId, spanId, traceFlags: 0, traceState: "congo=t61" },
      createIdGenerator(countingRandom()),
    );
    expect(trace).toEqual({
      traceId,
      spanId: "0102030405060708",
      parentSpanId: spanId,
      traceFlags: 0,
      traceState: "congo=t61",
    });
  });

  it("never makes an all-zero id", () => {
    const ids = createIdGenerator((bytes) => bytes.fill(0, 0, 16).fill(9, 16));
    expect(ids.traceId()).not.toBe("0".repeat(32));
  });
});

describe("injectTraceContext", () => {
  const child = { traceId, spanId: "b7ad6b7169203331", traceFlags: 1 };

  it("returns new params with the child context in _meta, leaving the input unchanged", () => {
    const params = { name: "echo", _meta: { progressToken: 5, traceparent: "old" } };
    const injected = injectTraceContext(params, child);
    expect(injected).toEqual({
      name: "echo",
      _meta: { progressToken: 5, traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    expect(params._meta.traceparent).toBe("old");
    expect(injected).not.toBe(params);
  });

  it("adds tracestate when the context has one and removes a stale one when not", () => {
    const empty: { _meta?: Record<string, unknown> } = {};
    expect(injectTraceContext(empty, { ...child, traceState: "a=1" })._meta).toMatchObject({
      tracestate: "a=1",
    });
    expect(injectTraceContext({ _meta: { tracestate: "old=1" } }, child)._meta).not.toHaveProperty(
      "tracestate",
    );
  });

  it("writes at most 32 tracestate members into _meta, dropping those at the end", () => {
    const members = Array.from({ length: 33 }, (_, index) => `k${index}=v${index}`);
    const injected = injectTraceContext(undefined, { ...child, traceState: members.join(",") });
    expect(injected._meta.tracestate).toBe(members.slice(0, 32).join(","));
  });

  it("writes at most 512 tracestate characters into _meta, dropping members over 128 first", () => {
    const short = Array.from({ length: 5 }, (_, index) => `s${index}=${"y".repeat(97)}`);
    const long = `long=${"x".repeat(129)}`;
    const injected = injectTraceContext(undefined, {
      ...child,
      traceState: [long, ...short].join(","),
    });
    expect(injected._meta.tracestate).toBe(short.join(","));
  });

  it("leaves out an invalid tracestate", () => {
    const injected = injectTraceContext(undefined, { ...child, traceState: "a=1,a=2" });
    expect(injected._meta).not.toHaveProperty("tracestate");
  });

  it("creates params when there were none and leaves positional params alone", () => {
    expect(injectTraceContext(undefined, child)).toEqual({
      _meta: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    const positional = [1, 2];
    expect(injectTraceContext(positional, child)).toBe(positional);
  });

  it("keeps JSON-parsed __proto__ keys of params and _meta as own properties", () => {
    const params = JSON.parse(
      '{"__proto__": {"a": 1}, "name": "echo", "_meta": {"__proto__": {"b": 2}, "progressToken": 5}}',
    ) as { name: string; _meta: Record<string, unknown> };
    const injected = injectTraceContext(params, child);
    expect(Object.getPrototypeOf(injected)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(injected, "__proto__")?.value).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(injected._meta)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(injected._meta, "__proto__")?.value).toEqual({ b: 2 });
    expect(injected._meta.progressToken).toBe(5);
    expect(injected._meta.traceparent).toBe(`00-${traceId}-b7ad6b7169203331-01`);
    expect(Object.keys(injected)).toEqual(["__proto__", "name", "_meta"]);
  });

  it("round-trips through readTraceContext", () => {
    expect(readTraceContext(injectTraceContext({ a: 1 }, child))).toEqual(child);
  });
});
