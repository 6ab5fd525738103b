import { describe, expect, it } from "vitest";
import type { JSONRPCSuccessResponse } from "../messages.js";
import { decode, encode, encodePieces, MAX_SNAPSHOT_ENTRIES } from "./codec.js";
import { decodeKeepingResult } from "./decode-keeping-result.js";

/** Decodes a response keeping its result's text, then answers another id with that result. */
function relay(text: string, id: string | number = 7) {
  const decoded = decodeKeepingResult(text);
  expect(decoded).toEqual(decode(text));
  if (!decoded.ok) throw new Error("expected a frame");
  const { result } = decoded.frame as JSONRPCSuccessResponse;
  return { result, pieces: encodePieces({ jsonrpc: "2.0", id, result }) };
}

describe("decodeKeepingResult", () => {
  it("writes a relayed result as it came, with the new id spliced in", () => {
    const resultText =
      '{ "content": [ {"type":"text","text":"\\u0041 caf\u00e9 \\"q\\" \\\\"} ], "n": 1.50 }';
    const { result, pieces } = relay(`{"jsonrpc":"2.0","id":1,"result":${resultText}}`);
    expect(pieces).toEqual(['{"jsonrpc":"2.0","id":7,"result":', resultText, "}"]);
    expect(JSON.parse(encode({ jsonrpc: "2.0", id: 7, result }))).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: 'A café "q" \\' }], n: 1.5 },
    });
  });

  it("splices string ids with escapes and non-ASCII characters", () => {
    const { pieces } = relay('{"jsonrpc":"2.0","id":"a","result":{"x":[1,{"y":null}]}}', 'é"\n');
    expect(pieces).toEqual([
      '{"jsonrpc":"2.0","id":"é\\"\\n","result":',
      '{"x":[1,{"y":null}]}',
      "}",
    ]);
    expect(JSON.parse((pieces as readonly string[]).join(""))).toEqual({
      jsonrpc: "2.0",
      id: 'é"\n',
      result: { x: [1, { y: null }] },
    });
  });

  it("keeps the result of the official SDK's member order, result first", () => {
    const { pieces } = relay('{"result":{"content":[]},"jsonrpc":"2.0","id":"s,1"}');
    expect(pieces).toEqual(['{"jsonrpc":"2.0","id":7,"result":', '{"content":[]}', "}"]);
  });

  it("keeps a result whose members mimic an envelope, and one between the envelope's members", () => {
    const tricky = '{"a":",\\"jsonrpc\\":\\"2.0\\",\\"id\\":1}","b":[",",{"c":","}]}';
    expect(relay(`{"result":${tricky},"jsonrpc":"2.0","id":1}`).pieces[1]).toBe(tricky);
    expect(relay(`{"id":1,"result":${tricky},"jsonrpc":"2.0"}`).pieces[1]).toBe(tricky);
    expect(relay(`{"jsonrpc":"2.0","id":1,"result":${tricky}}`).pieces[1]).toBe(tricky);
  });

  it("decodes duplicate members as JSON.parse does (the last one wins)", () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"result":{"a":1},"id":2}',
      '{"jsonrpc":"2.0","id":1,"result":{"a":1},"result":{"b":2}}',
      '{"result":{"a":1},"jsonrpc":"2.0","result":[],"id":3}',
      '{"id":1,"id":2,"jsonrpc":"2.0","result":{}}',
    ]) {
      expect(decodeKeepingResult(text)).toEqual(decode(text));
    }
  });

  it("answers what decode answers for texts that are not one valid response", () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"result":{"a":1}',
      '{"jsonrpc":"2.0","id":1,"result":{"a":1}}}',
      '{"jsonrpc":"2.0","id":1,"result":}',
      '\ufeff{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":1,"result":{}}\u00a0',
      '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}',
      '{"jsonrpc":"2.0","method":"m","result":{}}',
      '{"result":{}}',
      '[{"jsonrpc":"2.0","id":1,"result":{}}]',
      '{"jsonrpc":"1.0","id":1,"result":{}}',
      '{"x\\"result":1,"jsonrpc":"2.0","id":1,"result":{}}',
    ]) {
      expect(decodeKeepingResult(text)).toEqual(decode(text));
    }
  });

  it("keeps nothing for a result with a line break in its text, or a primitive result", () => {
    expect(relay('{"jsonrpc":"2.0","id":1,"result":{"a":\r\n1}}').pieces).toBe(
      '{"jsonrpc":"2.0","id":7,"result":{"a":1}}',
    );
    expect(relay('{"jsonrpc":"2.0","id":1,"result":"text"}').pieces).toBe(
      '{"jsonrpc":"2.0","id":7,"result":"text"}',
    );
  });

  it("keeps nothing for a result of more than MAX_SNAPSHOT_ENTRIES values", () => {
    // {"a":[...]}: the object, its key count, "a", the array, its length, then each number.
    const text = (count: number) =>
      `{"jsonrpc":"2.0","id":1,"result":{"a":[${Array.from({ length: count }, () => 0).join(", ")}]}}`;
    expect(typeof relay(text(MAX_SNAPSHOT_ENTRIES - 5)).pieces).toBe("object");
    expect(typeof relay(text(MAX_SNAPSHOT_ENTRIES - 4)).pieces).toBe("string");
  });

  it("serializes a result changed in place since it was decoded as it is now", () => {
    const { result } = relay('{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"old"}]}}');
    const content = (result as { content: { text: string }[] }).content;
    (content[0] as { text: string }).text = "new";
    expect(encode({ jsonrpc: "2.0", id: 2, result })).toBe(
      '{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"new"}]}}',
    );
    content.push({ text: "added" });
    expect(JSON.parse(encode({ jsonrpc: "2.0", id: 2, result })).result.content).toHaveLength(2);
  });

  it("serializes a frame that is not a plain { jsonrpc, id, result } response", () => {
    const { result } = relay('{"jsonrpc":"2.0","id":1,"result":{ "a" : 1 }}');
    expect(encode({ id: 1, jsonrpc: "2.0", result } as never)).toBe(
      '{"id":1,"jsonrpc":"2.0","result":{"a":1}}',
    );
    expect(encode([{ jsonrpc: "2.0", id: 1, result }])).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":{"a":1}}]',
    );
    const extra = { jsonrpc: "2.0", id: 1, result, extra: true } as never;
    expect(encode(extra)).toBe('{"jsonrpc":"2.0","id":1,"result":{"a":1},"extra":true}');
  });
});
