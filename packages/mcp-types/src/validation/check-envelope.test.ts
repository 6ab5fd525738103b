import { describe, expect, it } from "vitest";
import { checkEnvelope } from "./check-envelope.js";

describe("the hand-written envelope check", () => {
  it("accepts the four kinds of message, with ids 0 and the empty string", () => {
    expect(checkEnvelope({ jsonrpc: "2.0", id: 0, method: "ping" })).toEqual([]);
    expect(checkEnvelope({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual([]);
    expect(checkEnvelope({ jsonrpc: "2.0", id: "", result: {} })).toEqual([]);
    expect(
      checkEnvelope({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
    ).toEqual([]);
  });

  it("names the offending member", () => {
    expect(checkEnvelope({ jsonrpc: "2.0", id: 1.5, method: "ping" })[0]?.path).toEqual(["id"]);
    expect(checkEnvelope({ jsonrpc: "2.0", method: "x", params: [1] })[0]?.path).toEqual([
      "params",
    ]);
    expect(checkEnvelope({ jsonrpc: "2.0", id: 1, result: "ok" })[0]?.path).toEqual(["result"]);
    expect(
      checkEnvelope({ jsonrpc: "2.0", id: 1, error: { code: -1.5 } }).map((issue) => issue.path),
    ).toEqual([
      ["error", "code"],
      ["error", "message"],
    ]);
  });

  it("refuses what is not a message", () => {
    expect(checkEnvelope(null)[0]?.message).toBe("Expected a JSON-RPC message object");
    expect(checkEnvelope({ jsonrpc: "2.0", id: 1 })[0]?.message).toBe(
      "Expected a request, notification, result or error",
    );
  });
});
