import { describe, expect, it } from "vitest";
import {
  formatTraceparent,
  formatTracestate,
  parseTraceparent,
  parseTracestate,
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
