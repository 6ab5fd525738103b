import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frameArbitrary } from "../../test/arbitraries.js";
import { decode, decodeValue, encode } from "./codec.js";

describe("codec properties", () => {
  it("decode(encode(frame)) gives the frame back, with nothing rejected", () => {
    fc.assert(
      fc.property(frameArbitrary, (frame) => {
        const text = encode(frame);
        expect(decode(text)).toEqual({ ok: true, frame: JSON.parse(text), rejected: [] });
      }),
    );
  });

  it("decode never throws and always answers with a valid error response on failure", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const result = decode(text);
        if (result.ok) return;
        const { id, error } = result.response;
        expect([-32700, -32600]).toContain(error.code);
        expect(id === null || typeof id === "string" || typeof id === "number").toBe(true);
      }),
    );
  });

  it("a batch splits into valid elements and one rejection per invalid element", () => {
    const element = fc.oneof(
      frameArbitrary.filter((frame) => !Array.isArray(frame)),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(element, { minLength: 1, maxLength: 8 }), (batch) => {
        const result = decodeValue(batch);
        expect(result.ok).toBe(true);
        if (!result.ok || !Array.isArray(result.frame)) return;
        expect(result.frame.length + result.rejected.length).toBe(batch.length);
        for (const response of result.rejected) expect(response.error.code).toBe(-32600);
      }),
    );
  });
});
