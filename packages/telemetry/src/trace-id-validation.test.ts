import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidSpanId, isValidTraceId } from "./trace-context.js";

// The regular expressions the character-code check replaced: both must agree on every input.
const reference = (value: string, length: number) =>
  new RegExp(`^[0-9a-f]{${length}}$`).test(value) && value !== "0".repeat(length);

describe("isValidTraceId and isValidSpanId", () => {
  it("accept lowercase hex ids of the right length that are not all zero", () => {
    expect(isValidTraceId("4bf92f3577b34da6a3ce929d0e0e4736")).toBe(true);
    expect(isValidTraceId(`${"0".repeat(31)}1`)).toBe(true);
    expect(isValidSpanId("00f067aa0ba902b7")).toBe(true);
    expect(isValidSpanId(`f${"0".repeat(15)}`)).toBe(true);
  });

  it("refuse all-zero ids, wrong lengths, uppercase and the characters next to the hex ranges", () => {
    expect(isValidTraceId("0".repeat(32))).toBe(false);
    expect(isValidSpanId("0".repeat(16))).toBe(false);
    expect(isValidTraceId("a".repeat(31))).toBe(false);
    expect(isValidTraceId("a".repeat(33))).toBe(false);
    expect(isValidSpanId("a".repeat(32))).toBe(false);
    expect(isValidTraceId("")).toBe(false);
    for (const character of ["A", "F", "/", ":", "`", "g", " ", "\u0660"]) {
      expect(isValidSpanId(`${character}${"1".repeat(15)}`)).toBe(false);
      expect(isValidTraceId(`${"1".repeat(31)}${character}`)).toBe(false);
    }
  });

  it("judge a non-string by its string form, as the regular expression did", () => {
    const id = "00f067aa0ba902b7";
    expect(isValidSpanId([id] as unknown as string)).toBe(true);
    expect(isValidSpanId(undefined as unknown as string)).toBe(false);
  });

  it("agree with the regular-expression definition on arbitrary strings", () => {
    const hexLike = fc.string({
      unit: fc.constantFrom(..."0123456789abcdefABCDEFg/:`"),
      minLength: 14,
      maxLength: 34,
    });
    fc.assert(
      fc.property(fc.oneof(hexLike, fc.string()), (value) => {
        expect(isValidTraceId(value)).toBe(reference(value, 32));
        expect(isValidSpanId(value)).toBe(reference(value, 16));
      }),
      { numRuns: 2000 },
    );
  });
});
