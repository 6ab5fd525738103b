import { describe, expect, it } from "vitest";
import { keptResult } from "../codec/codec.js";
import { decodeRelayedResult } from "./relayed-result.js";

describe("decodeRelayedResult", () => {
  it("gives back a large result with its text kept, and the chunks it fed the decoder", () => {
    const text = `{ "content" : [ { "type":"text", "text":"${"é".repeat(40_000)}${"x".repeat(30_000)}" } ] }`;
    const { result, chunks } = decodeRelayedResult(text, { id: 3, chunkBytes: 16_384 });
    expect(result).toEqual(JSON.parse(text));
    expect(keptResult(result)?.text).toBe(text);
    const line = `{"jsonrpc":"2.0","id":3,"result":${text}}\n`;
    expect(chunks.length).toBe(Math.ceil(new TextEncoder().encode(line).length / 16_384));
  });
});
