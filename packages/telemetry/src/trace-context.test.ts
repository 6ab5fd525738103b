import { describe, expect, it } from "vitest";
import {
  createIdGenerator,
  formatTraceparent,
  formatTracestate,
  type IdGenerator,
  parseTraceparent,
  parseTracestate,
  startRequestTrace,
  truncateTracestate,
} from "./trace-context.js";

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const spanId = "00f067aa0ba902b7";
const valid = `00-${traceId}-${spanId}-01`;

describe("parseTraceparent", () => {
  it("parses a valid version 00 header", () => {
    expect(parseTraceparent(valid)).toEqual({ traceId, spanId, traceFlags: 1 });
    expect(parseTraceparent(`00-${traceId}-${spanId}-00`)?.traceFlags).toBe(0);
  });

  it("accepts a future version with extra fields, keeping only the sampled flag", () => {
    expect(parseTraceparent(`cc-${traceId}-${spanId}-09-what-the-future-holds`)).toEqual({
      traceId,
      spanId,
      traceFlags: 1,
    });
    expect(parseTraceparent(`01-${traceId}-${spanId}-00`)).toEqual({
      traceId,
      spanId,
      traceFlags: 0,
    });
  });

  it.each([
    ["version ff", `ff-${traceId}-${spanId}-01`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${spanId}-01`],
    ["an all-zero parent id", `00-${traceId}-${"0".repeat(16)}-01`],
    ["uppercase hex in the trace id", `00-${traceId.toUpperCase()}-${spanId}-01`],
    ["uppercase hex in the parent id", `00-${traceId}-${spanId.toUpperCase()}-01`],
    ["uppercase hex in the flags", `00-${traceId}-${spanId}-0A`],
    ["uppercase hex in the version", `0A-${traceId}-${spanId}-01`],
    ["a short trace id", `00-${traceId.slice(1)}-${spanId}-01`],
    ["a long trace id", `00-${traceId}0-${spanId}-01`],
    ["a short parent id", `00-${traceId}-${spanId.slice(1)}-01`],
    ["a one-digit flags field", `00-${traceId}-${spanId}-1`],
    ["version 00 with trailing data", `${valid}-extra`],
    ["a future version with trailing data not after a dash", `01-${traceId}-${spanId}-01x`],
    ["non-hex characters", `00-${traceId.slice(0, 31)}g-${spanId}-01`],
    ["underscores instead of dashes", valid.replaceAll("-", "_")],
    ["leading whitespace", ` ${valid}`],
    ["trailing whitespace", `${valid} `],
    ["the empty string", ""],
  ])("refuses %s", (_name, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });

  it("refuses values that are not strings", () => {
    expect(parseTraceparent(42 as unknown as string)).toBeUndefined();
  });
});

describe("formatTraceparent", () => {
  it("round-trips with parseTraceparent", () => {
    expect(formatTraceparent({ traceId, spanId, traceFlags: 1 })).toBe(valid);
    expect(parseTraceparent(formatTraceparent({ traceId, spanId, traceFlags: 0 }))).toEqual({
      traceId,
      spanId,
      traceFlags: 0,
    });
  });

  it("refuses invalid ids and flags", () => {
    expect(() => formatTraceparent({ traceId: "0".repeat(32), spanId, traceFlags: 1 })).toThrow(
      RangeError,
    );
    expect(() => formatTraceparent({ traceId, spanId: "xyz", traceFlags: 1 })).toThrow(RangeError);
    expect(() => formatTraceparent({ traceId, spanId, traceFlags: 256 })).toThrow(RangeError);
  });
});

describe("formatTraceparent of a trace startRequestTrace made", () => {
  it("formats a trace made from the pool's ids, shaped as an object literal of it", () => {
    const ids = createIdGenerator();
    const root = startRequestTrace(undefined, ids);
    expect(Object.keys(root)).toEqual(["traceId", "spanId", "traceFlags"]);
    expect(formatTraceparent(root)).toBe(`00-${root.traceId}-${root.spanId}-01`);
    const child = startRequestTrace({ ...root, traceState: "a=1" }, ids);
    expect(Object.keys(child)).toEqual([
      "traceId",
      "spanId",
      "parentSpanId",
      "traceFlags",
      "traceState",
    ]);
    const leg = startRequestTrace(root, ids);
    expect(leg).toEqual({
      traceId: root.traceId,
      spanId: leg.spanId,
      parentSpanId: root.spanId,
      traceFlags: 1,
    });
    expect(Object.keys(leg)).toEqual(["traceId", "spanId", "parentSpanId", "traceFlags"]);
    expect(parseTraceparent(formatTraceparent(leg))).toEqual({
      traceId: root.traceId,
      spanId: leg.spanId,
      traceFlags: 1,
    });
  });

  it("still checks the ids of a trace from another generator, of a parent it did not make, or of a copy", () => {
    const bad: IdGenerator = { traceId: () => "not-hex", spanId: () => "0".repeat(16) };
    expect(() => formatTraceparent(startRequestTrace(undefined, bad))).toThrow(RangeError);
    const ids = createIdGenerator();
    const foreignParent = { traceId: "z".repeat(32), spanId, traceFlags: 1 };
    expect(() => formatTraceparent(startRequestTrace(foreignParent, ids))).toThrow(
      "invalid trace id",
    );
    const copy = { ...startRequestTrace(undefined, ids), spanId: "0".repeat(16) };
    expect(() => formatTraceparent(copy)).toThrow("invalid span id");
    const built = startRequestTrace(undefined, ids);
    const child = startRequestTrace({ ...built, traceId: "x".repeat(32) }, ids);
    expect(() => formatTraceparent(child)).toThrow("invalid trace id");
  });
});

describe("parseTracestate", () => {
  it("parses members, skipping empty ones and optional whitespace", () => {
    expect(parseTracestate("congo=t61rcWkgMzE, rojo=00f067aa0ba902b7 ,,tenant@vendor=x")).toEqual([
      ["congo", "t61rcWkgMzE"],
      ["rojo", "00f067aa0ba902b7"],
      ["tenant@vendor", "x"],
    ]);
    expect(parseTracestate("")).toEqual([]);
  });

  it.each([
    ["a duplicate key", "a=1,a=2"],
    ["an uppercase key", "Congo=1"],
    ["a key starting with a digit (not multi-tenant)", "1abc=1"],
    ["a member without =", "congo"],
    ["an empty key", "=value"],
    ["an empty value", "congo="],
    ["a value with =", "congo=a=b"],
    ["a value ending in a non-breaking space (not optional whitespace)", "congo=abc\u00a0,x=1"],
    ["a tab inside a value", "congo=a\tb"],
    ["a non-ASCII value", "congo=caf\u00e9"],
    ["a vendor part too long", `t@${"v".repeat(15)}=1`],
    ["more than 32 members", Array.from({ length: 33 }, (_, index) => `k${index}=v`).join(",")],
  ])("refuses %s", (_name, header) => {
    expect(parseTracestate(header)).toBeUndefined();
  });

  it("accepts exactly 32 members and formats them back", () => {
    const header = Array.from({ length: 32 }, (_, index) => `k${index}=v`).join(",");
    const entries = parseTracestate(header);
    expect(entries).toHaveLength(32);
    expect(formatTracestate(entries ?? [])).toBe(header);
  });
});

describe("truncateTracestate", () => {
  /** `count` members `k0=v0,k1=v1,...`. */
  const members = (count: number, prefix = "k") =>
    Array.from({ length: count }, (_, index) => `${prefix}${index}=v${index}`);

  it("returns a value within the limits unchanged", () => {
    expect(truncateTracestate("congo=t61, rojo=00f067aa0ba902b7")).toBe(
      "congo=t61, rojo=00f067aa0ba902b7",
    );
  });

  it("keeps the first 32 of more than 32 members, removing from the end", () => {
    const value = members(40).join(",");
    expect(truncateTracestate(value)).toBe(members(32).join(","));
  });

  it("removes members longer than 128 characters first when the value is over 512 characters", () => {
    const long = `long=${"x".repeat(200)}`;
    // Five short members of 100 characters and the long one: 710 characters with commas.
    const short = Array.from({ length: 5 }, (_, index) => `s${index}=${"y".repeat(97)}`);
    const value = [short[0], long, ...short.slice(1)].join(",");
    expect(value.length).toBeGreaterThan(512);
    expect(truncateTracestate(value)).toBe(short.join(","));
  });

  it("then removes members from the end until 512 characters remain", () => {
    // Seven members of 100 characters: 706 characters; five of them plus commas make 504.
    const short = Array.from({ length: 7 }, (_, index) => `s${index}=${"y".repeat(97)}`);
    const truncated = truncateTracestate(short.join(","));
    expect(truncated).toBe(short.slice(0, 5).join(","));
    expect(truncated?.length).toBeLessThanOrEqual(512);
  });

  it("keeps a long member when the value fits", () => {
    const value = `long=${"x".repeat(200)},congo=t61`;
    expect(truncateTracestate(value)).toBe(value);
  });

  it("gives undefined for an invalid or empty value", () => {
    expect(truncateTracestate("a=1,a=2")).toBeUndefined();
    expect(truncateTracestate(" , ")).toBeUndefined();
  });
});

describe("parseTraceparent of the value formatTraceparent just made", () => {
  const context = { traceId, spanId, traceFlags: 3 };

  it("gives back the formatted parts, as a new object every time", () => {
    const value = formatTraceparent(context);
    const first = parseTraceparent(value);
    expect(first).toEqual(context);
    expect(first).not.toBe(context);
    (first as { traceFlags: number }).traceFlags = 0;
    expect(parseTraceparent(value)).toEqual(context);
    expect(parseTraceparent(value)).not.toBe(parseTraceparent(value));
  });

  it("still parses every other value on its own", () => {
    formatTraceparent(context);
    expect(parseTraceparent("")).toBeUndefined();
    expect(parseTraceparent(`00-${traceId}-${spanId}-0`)).toBeUndefined();
    expect(parseTraceparent(`00-${traceId.toUpperCase()}-${spanId}-03`)).toBeUndefined();
    expect(parseTraceparent(`01-${traceId}-${spanId}-03`)).toEqual({ ...context, traceFlags: 1 });
    expect(parseTraceparent(`00-${traceId}-${spanId}-01`)).toEqual({ ...context, traceFlags: 1 });
  });

  it("parses a value whose ids passed validation only as strings into string ids", () => {
    const value = formatTraceparent({
      traceId: [traceId] as unknown as string,
      spanId: [spanId] as unknown as string,
      traceFlags: 1,
    });
    expect(value).toBe(valid);
    expect(parseTraceparent(value)).toEqual({ traceId, spanId, traceFlags: 1 });
  });
});
