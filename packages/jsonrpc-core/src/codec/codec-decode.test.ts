import { describe, expect, it } from "vitest";
import { decode, decodeValue } from "./codec.js";

function problemOf(text: string) {
  const result = decode(text);
  if (result.ok) throw new Error("expected a failure");
  return result.response;
}

describe("decode: single messages", () => {
  it("accepts a request, a notification and both kinds of response", () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"note","params":[1]}',
      '{"jsonrpc":"2.0","id":"a","result":{"x":1}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    ]) {
      const result = decode(text);
      expect(result).toEqual({ ok: true, frame: JSON.parse(text), rejected: [] });
    }
  });

  it("accepts 0 and the empty string as ids", () => {
    expect(decode('{"jsonrpc":"2.0","id":0,"method":"m"}').ok).toBe(true);
    expect(decode('{"jsonrpc":"2.0","id":"","method":"m"}').ok).toBe(true);
    expect(decode('{"jsonrpc":"2.0","id":0,"result":null}').ok).toBe(true);
  });

  it("answers invalid JSON with -32700 and id null", () => {
    const response = problemOf('{"jsonrpc":"2.0","id":1,');
    expect(response.id).toBeNull();
    expect(response.error.code).toBe(-32700);
    expect(typeof response.error.data).toBe("string");
  });

  it.each([
    ["a non-object", "42", null, "JSON object"],
    ["null", "null", null, "JSON object"],
    ["a wrong version", '{"jsonrpc":"1.0","id":3,"method":"m"}', 3, '"jsonrpc"'],
    ["a missing version", '{"id":3,"method":"m"}', 3, '"jsonrpc"'],
    ["a numeric method", '{"jsonrpc":"2.0","id":"x","method":1}', "x", '"method"'],
    ["an object id", '{"jsonrpc":"2.0","id":{},"method":"m"}', null, '"id"'],
    ["a null request id", '{"jsonrpc":"2.0","id":null,"method":"m"}', null, '"id"'],
    ["scalar params", '{"jsonrpc":"2.0","id":4,"method":"m","params":5}', 4, '"params"'],
    ["null params", '{"jsonrpc":"2.0","method":"m","params":null}', null, '"params"'],
    ["method and result", '{"jsonrpc":"2.0","id":5,"method":"m","result":1}', 5, '"result"'],
    ["no method, result or error", '{"jsonrpc":"2.0","id":6}', 6, '"method"'],
    ["result and error", '{"jsonrpc":"2.0","id":7,"result":1,"error":{}}', 7, "both"],
    ["a response without id", '{"jsonrpc":"2.0","result":1}', null, '"id"'],
    ["a success response with id null", '{"jsonrpc":"2.0","id":null,"result":1}', null, '"id"'],
    ["a bad error object", '{"jsonrpc":"2.0","id":8,"error":"x"}', 8, '"error"'],
    [
      "a fractional error code",
      '{"jsonrpc":"2.0","id":9,"error":{"code":1.5,"message":""}}',
      9,
      "code",
    ],
    ["an error without message", '{"jsonrpc":"2.0","id":9,"error":{"code":1}}', 9, "message"],
  ])("answers %s with -32600, the readable id and a reason", (_name, text, id, reason) => {
    const response = problemOf(text);
    expect(response.error.code).toBe(-32600);
    expect(response.id).toBe(id);
    expect(response.error.data).toContain(reason);
  });
});

describe("decode: batches (JSON-RPC 2.0 section 6)", () => {
  it("answers an empty array with one -32600", () => {
    const response = problemOf("[]");
    expect(response).toMatchObject({ id: null, error: { code: -32600 } });
    expect(response.error.data).toContain("empty");
  });

  it("keeps a valid batch as parsed, with nothing rejected", () => {
    const text = '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]';
    expect(decode(text)).toEqual({ ok: true, frame: JSON.parse(text), rejected: [] });
  });

  it("rejects each invalid element on its own and keeps the valid ones in order", () => {
    const result = decode(
      '[{"jsonrpc":"2.0","id":1,"method":"a"},1,{"jsonrpc":"2.0","id":"q"},{"jsonrpc":"2.0","method":"b"}]',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.frame).toEqual([
      { jsonrpc: "2.0", id: 1, method: "a" },
      { jsonrpc: "2.0", method: "b" },
    ]);
    expect(result.rejected).toHaveLength(2);
    expect(result.rejected[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(result.rejected[0]?.error.data).toContain("batch element 1");
    expect(result.rejected[1]).toMatchObject({ id: "q", error: { code: -32600 } });
  });

  it("delivers a batch of only invalid elements as an empty frame with one rejection each", () => {
    const result = decode("[1,2,3]");
    expect(result).toMatchObject({ ok: true, frame: [] });
    if (result.ok) expect(result.rejected).toHaveLength(3);
  });
});

describe("decodeValue", () => {
  it("applies the same rules to an already parsed value", () => {
    expect(decodeValue({ jsonrpc: "2.0", method: "m" }).ok).toBe(true);
    expect(decodeValue([])).toMatchObject({ ok: false, response: { error: { code: -32600 } } });
  });

  it("rejects ids that JSON cannot carry", () => {
    expect(decodeValue({ jsonrpc: "2.0", id: Number.NaN, method: "m" }).ok).toBe(false);
    expect(decodeValue({ jsonrpc: "2.0", id: Infinity, result: 1 }).ok).toBe(false);
  });
});
