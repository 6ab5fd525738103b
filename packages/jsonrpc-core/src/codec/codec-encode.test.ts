import { describe, expect, it } from "vitest";
import { decode, encode } from "./codec.js";

describe("encode", () => {
  it("writes a message as compact JSON that decodes to the same frame", () => {
    const frame = { jsonrpc: "2.0", id: 0, method: "tools/list", params: {} } as const;
    const text = encode(frame);
    expect(text).toBe('{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{}}');
    expect(decode(text)).toEqual({ ok: true, frame, rejected: [] });
  });

  it("writes a batch as a JSON array", () => {
    const text = encode([
      { jsonrpc: "2.0", id: "", result: null },
      { jsonrpc: "2.0", method: "n" },
    ]);
    expect(JSON.parse(text)).toHaveLength(2);
  });
});
