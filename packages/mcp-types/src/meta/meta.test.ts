import { describe, expect, it } from "vitest";
import { getMeta, getProgressToken, withMeta, withProgressToken } from "./meta-access.js";
import { isReservedMetaKey, isValidMetaKey, parseMetaKey } from "./meta-keys.js";
import {
  getModernRequestMeta,
  getServerInfo,
  getSubscriptionId,
  withModernRequestMeta,
} from "./modern-request-meta.js";
import {
  getTraceContext,
  getTraceIdFromTraceparent,
  isValidTraceparent,
  withTraceContext,
} from "./trace-context.js";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("_meta key rules", () => {
  it("reserves prefixes whose second label is modelcontextprotocol or mcp", () => {
    expect(isReservedMetaKey("io.modelcontextprotocol/protocolVersion")).toBe(true);
    expect(isReservedMetaKey("dev.mcp/x")).toBe(true);
    expect(isReservedMetaKey("org.modelcontextprotocol.api/x")).toBe(true);
    expect(isReservedMetaKey("com.mcp.tools/x")).toBe(true);
    expect(isReservedMetaKey("com.example.mcp/x")).toBe(false);
    expect(isReservedMetaKey("com.example/x")).toBe(false);
  });

  it("reserves progressToken and the W3C trace keys", () => {
    for (const key of ["progressToken", "traceparent", "tracestate", "baggage"]) {
      expect(isReservedMetaKey(key)).toBe(true);
    }
    expect(isReservedMetaKey("requestId")).toBe(false);
  });

  it("checks labels and names", () => {
    expect(parseMetaKey("com.example/my-key_1.x")).toEqual({
      labels: ["com", "example"],
      name: "my-key_1.x",
    });
    expect(parseMetaKey("plain")).toEqual({ labels: [], name: "plain" });
    expect(isValidMetaKey("com.example/")).toBe(true);
    expect(isValidMetaKey("1com.example/x")).toBe(false);
    expect(isValidMetaKey("com-.example/x")).toBe(false);
    expect(isValidMetaKey("com.example/-x")).toBe(false);
  });
});

describe("_meta helpers", () => {
  it("reads and writes the progress token without touching the input", () => {
    const params = { name: "t", _meta: { other: 1 } };
    const updated = withProgressToken(params, 0);
    expect(updated).toEqual({ name: "t", _meta: { other: 1, progressToken: 0 } });
    expect(params).toEqual({ name: "t", _meta: { other: 1 } });
    expect(getProgressToken(updated)).toBe(0);
    expect(getProgressToken({ _meta: { progressToken: null } })).toBeUndefined();
    expect(getProgressToken(undefined)).toBeUndefined();
  });

  it("creates params when there were none and deletes keys given undefined", () => {
    expect(withMeta(undefined, { a: 1 })).toEqual({ _meta: { a: 1 } });
    expect(withMeta({ _meta: { a: 1, b: 2 } }, { a: undefined })).toEqual({ _meta: { b: 2 } });
    expect(getMeta({ _meta: "x" })).toBeUndefined();
  });

  it("reads and writes W3C trace context", () => {
    const params = withTraceContext(
      { name: "t" },
      { traceparent: TRACEPARENT, tracestate: "a=1", baggage: "user=1" },
    );
    expect(params._meta).toEqual({
      traceparent: TRACEPARENT,
      tracestate: "a=1",
      baggage: "user=1",
    });
    expect(getTraceContext(params)).toEqual({
      traceparent: TRACEPARENT,
      tracestate: "a=1",
      baggage: "user=1",
    });
    expect(getTraceIdFromTraceparent(TRACEPARENT)).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("drops an invalid traceparent (and its tracestate) when reading, refuses it when writing", () => {
    expect(getTraceContext({ _meta: { traceparent: "garbage", tracestate: "a=1" } })).toEqual({});
    expect(isValidTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBe(
      false,
    );
    expect(isValidTraceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBe(
      false,
    );
    expect(() => withTraceContext({}, { traceparent: "x" })).toThrow(TypeError);
  });

  it("writes and reads the modern per-request keys", () => {
    const params = withModernRequestMeta(
      { name: "t" },
      {
        protocolVersion: "2026-07-28",
        clientCapabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    );
    expect(params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
    });
    expect(getModernRequestMeta(params)).toEqual({
      protocolVersion: "2026-07-28",
      clientCapabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    expect(
      getModernRequestMeta({ _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }),
    ).toBeUndefined();
  });

  it("reads the subscription id and server info", () => {
    expect(
      getSubscriptionId({ _meta: { "io.modelcontextprotocol/subscriptionId": "listen:1" } }),
    ).toBe("listen:1");
    expect(
      getServerInfo({
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
      }),
    ).toEqual({
      name: "s",
      version: "1",
    });
  });
});
