import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cut } from "../../test/chunks.js";
import { Utf8Pieces } from "./utf8-pieces.js";

/** Bytes of any kind: valid characters of every length, byte order marks, and invalid bytes. */
const bytesArbitrary = fc
  .array(
    fc.oneof(
      fc
        .string({ unit: "binary", maxLength: 6 })
        .map((text) => [...new TextEncoder().encode(text)]),
      fc.constant([0xef, 0xbb, 0xbf]),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((groups) => Uint8Array.from(groups.flat()));

function decodeInPieces(pieces: Utf8Pieces, chunks: readonly Uint8Array[]): string {
  const texts = chunks.map((chunk) => pieces.decode(chunk));
  texts.push(pieces.decode(new Uint8Array(0), true));
  return texts.join("");
}

describe("Utf8Pieces", () => {
  it("decodes a line cut anywhere into what one TextDecoder.decode of it gives", () => {
    fc.assert(
      fc.property(bytesArbitrary, fc.array(fc.nat(), { maxLength: 8 }), (bytes, positions) => {
        const pieces = new Utf8Pieces();
        expect(decodeInPieces(pieces, cut(bytes, positions))).toBe(new TextDecoder().decode(bytes));
        // The next line starts afresh: its byte order mark is stripped too.
        expect(decodeInPieces(pieces, cut(bytes, positions))).toBe(new TextDecoder().decode(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps a character cut over three pieces for the piece that completes it", () => {
    const pieces = new Utf8Pieces();
    expect([0xf0, 0x9f, 0x98].map((byte) => pieces.decode(Uint8Array.of(byte)))).toEqual([
      "",
      "",
      "",
    ]);
    expect(pieces.decode(Uint8Array.of(0x80, 0x41), true)).toBe("😀A");
  });

  it("decodes carried bytes that cannot start a character as errors when switching decoders", () => {
    const pieces = new Utf8Pieces();
    // A byte order mark (stripped: fewer characters than bytes), then 0xF5, which no character starts with.
    const bytes = Uint8Array.of(0xef, 0xbb, 0xbf, 0xf5, 0x80);
    expect(decodeInPieces(pieces, [bytes])).toBe("\ufffd\ufffd");
    expect(decodeInPieces(pieces, [bytes.subarray(0, 4), bytes.subarray(4)])).toBe("\ufffd\ufffd");
  });

  it("starts over after reset, forgetting a cut character", () => {
    const pieces = new Utf8Pieces();
    pieces.decode(Uint8Array.of(0x41, 0xe2, 0x82));
    pieces.reset();
    expect(pieces.decode(Uint8Array.of(0xef, 0xbb, 0xbf, 0x42), true)).toBe("B");
  });
});
