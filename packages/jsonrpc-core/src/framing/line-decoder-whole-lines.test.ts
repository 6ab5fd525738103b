import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cut } from "../../test/chunks.js";
import { createLineSplitter, type DroppedLine } from "./line-decoder.js";

type Event = { line: string } | { dropped: DroppedLine | number };

/**
 * Feeds `chunks` to a splitter and records what it delivers, in order; with `sizesOnly`, of a
 * dropped line only its size (the ends it keeps of a line dropped while it arrives depend on the
 * chunking).
 */
function split(chunks: Iterable<Uint8Array>, maxLineBytes: number, sizesOnly = false): Event[] {
  const events: Event[] = [];
  const splitter = createLineSplitter({
    maxLineBytes,
    onLine: (line) => events.push({ line }),
    onDroppedLine: (dropped) => events.push({ dropped: sizesOnly ? dropped.lineBytes : dropped }),
  });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return events;
}

/** One byte per chunk: no chunk holds two newlines, so every line is decoded alone. */
function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (byte) => Uint8Array.of(byte));
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("createLineSplitter: the lines lying whole in one chunk, decoded together", () => {
  it("delivers each as if decoded alone: no CR, no leading byte order mark, no blank line", () => {
    const bytes = Uint8Array.of(
      ...utf8("first\n\uFEFF\uFEFF{}\r\n\r\n \n"),
      ...[0xe2, 0x82, 0x0d, 0x0a], // a character cut short, then CRLF
      ...utf8("é🎛️\r\n"),
      ...[0xef, 0xbb, 0xbf, 0x0d, 0x0a], // a byte order mark alone
      ...utf8("\uFEFF\uFEFFx\nrest"),
    );
    const lines = ["first", "\uFEFF{}", "\uFFFD", "é🎛️", "\uFEFFx", "rest"].map((line) => ({
      line,
    }));
    expect(split([bytes], 64)).toEqual(lines);
    expect(split(byteByByte(bytes), 64)).toEqual(lines);
  });

  it("still drops an overlong line among them, with its exact size and ends", () => {
    const bytes = utf8("a\nbb\nccccc\r\ndd\nee\n");
    const dropped = { dropped: { lineBytes: 5, head: utf8("ccccc"), tail: utf8("ccccc") } };
    expect(split([bytes], 4)).toEqual([
      { line: "a" },
      { line: "bb" },
      dropped,
      { line: "dd" },
      { line: "ee" },
    ]);
  });

  it("delivers the same as byte-by-byte decoding, whatever the bytes, chunking and limit", () => {
    // Bytes, and the sequences that matter: line endings, a byte order mark, characters whole
    // and cut short.
    const piece = fc.oneof(
      fc.integer({ min: 0, max: 255 }).map((byte) => [byte]),
      fc.constantFrom([0x0a], [0x0d, 0x0a], [0xef, 0xbb, 0xbf], [0x0a, 0xef, 0xbb, 0xbf]),
      fc.constantFrom([0x20], [0xe2, 0x82, 0xac], [0xe2, 0x82], [0xf0, 0x9f, 0x8e, 0x9b], [0xff]),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 200 }),
        (pieces, positions, maxLineBytes) => {
          const bytes = Uint8Array.from(pieces.flat());
          expect(split(cut(bytes, positions), maxLineBytes, true)).toEqual(
            split(byteByByte(bytes), maxLineBytes, true),
          );
        },
      ),
    );
  });
});
