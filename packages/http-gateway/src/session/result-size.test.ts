import { describe, expect, it } from "vitest";
import { jsonBytesBound } from "./front-guard.js";

const exact = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("jsonBytesBound", () => {
  it("is never below the serialized size, whatever the escapes and characters", () => {
    const values: unknown[] = [
      "",
      "plain",
      '"quotes" and \\ backslashes',
      "\u0000\u0001\u001f control characters",
      "é ü 中文 😀 emoji and accents",
      -1.2345678901234567e-308,
      [true, false, null, 0, -0, 1e21, ["nested", { deep: [1, "two"] }]],
      { content: [{ type: "text", text: "x".repeat(10_000) }], isError: false, _meta: {} },
      { "k\u0001ey": "v", é: "😀", empty: {}, list: [] },
    ];
    for (const value of values) {
      expect(jsonBytesBound(value, Number.MAX_SAFE_INTEGER)).toBeGreaterThanOrEqual(exact(value));
    }
  });

  it("reads a long text's length instead of copying it", () => {
    const result = { content: [{ type: "text", text: "x".repeat(10 * 1024 * 1024) }] };
    expect(jsonBytesBound(result, 64 * 1024 * 1024)).toBeLessThan(64 * 1024 * 1024);
  });

  it("gives up (Infinity) past the limit and on what it cannot bound", () => {
    expect(jsonBytesBound({ text: "x".repeat(100) }, 50)).toBe(Number.POSITIVE_INFINITY);
    expect(jsonBytesBound({ when: new Date(0) }, 1_000)).toBe(Number.POSITIVE_INFINITY);
    expect(jsonBytesBound({ big: 1n }, 1_000)).toBe(Number.POSITIVE_INFINITY);
  });
});
