import { describe, expect, it } from "vitest";
import {
  detectEraFromDiscoverResponse,
  detectEraFromFirstMessage,
  detectEraFromHttpResponse,
} from "./era-detection.js";

describe("era detection", () => {
  it("reads legacy from an initialize request", () => {
    expect(
      detectEraFromFirstMessage({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }),
    ).toBe("legacy");
  });

  it("reads modern from a request carrying the protocol version in _meta", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    };
    expect(detectEraFromFirstMessage(message)).toBe("modern");
    expect(detectEraFromFirstMessage({ jsonrpc: "2.0", id: 1, method: "server/discover" })).toBe(
      "modern",
    );
  });

  it("cannot decide from a ping or a non-message", () => {
    expect(detectEraFromFirstMessage({ jsonrpc: "2.0", id: 1, method: "ping" })).toBeUndefined();
    expect(detectEraFromFirstMessage("hello")).toBeUndefined();
  });

  it("reads a discover result or a modern error as modern", () => {
    expect(
      detectEraFromDiscoverResponse({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } }),
    ).toBe("modern");
    expect(
      detectEraFromDiscoverResponse({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32022, message: "x" },
      }),
    ).toBe("modern");
  });

  it("reads any other error as legacy, not only -32601", () => {
    for (const code of [-32601, -32602, -32600, -32000]) {
      expect(
        detectEraFromDiscoverResponse({ jsonrpc: "2.0", id: 1, error: { code, message: "x" } }),
      ).toBe("legacy");
    }
    expect(detectEraFromDiscoverResponse(undefined)).toBe("legacy");
  });

  it("reads HTTP answers: 200 with a result or 400 with -32020/-32021/-32022 is modern", () => {
    expect(
      detectEraFromHttpResponse({ status: 200, body: { jsonrpc: "2.0", id: 1, result: {} } }),
    ).toBe("modern");
    expect(
      detectEraFromHttpResponse({
        status: 400,
        body: { jsonrpc: "2.0", id: 1, error: { code: -32020, message: "h" } },
      }),
    ).toBe("modern");
  });

  it("reads 400/404/405 without a modern error as legacy", () => {
    expect(detectEraFromHttpResponse({ status: 404 })).toBe("legacy");
    expect(detectEraFromHttpResponse({ status: 405, body: "Method Not Allowed" })).toBe("legacy");
    expect(
      detectEraFromHttpResponse({
        status: 400,
        body: {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: "Bad Request: Server not initialized" },
        },
      }),
    ).toBe("legacy");
  });
});
