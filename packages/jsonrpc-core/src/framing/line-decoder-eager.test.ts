import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cut } from "../../test/chunks.js";
import { createLineSplitter, type DroppedLine } from "./line-decoder.js";

function split(chunks: readonly Uint8Array[], eagerDecodeBytes: number, maxLineBytes = 1 << 20) {
  const lines: string[] = [];
  const dropped: DroppedLine[] = [];
  const splitter = createLineSplitter({
    maxLineBytes,
    eagerDecodeBytes,
    onLine: (line) => lines.push(line),
    onDroppedLine: (line) => dropped.push(line),
  });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, dropped: dropped.map((line) => line.lineBytes) };
}

describe("createLineSplitter: long lines decoded as they arrive", () => {
  it("yields the same lines as decoding each line at its newline, wherever chunks split", () => {
    const line = fc.string({ unit: "binary", maxLength: 40 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, fc.boolean()), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (lines, cuts) => {
          const text = lines.map(([body, crlf]) => `${body}${crlf ? "\r\n" : "\n"}`).join("");
          const chunks = cut(new TextEncoder().encode(text), cuts);
          expect(split(chunks, 4)).toEqual(split(chunks, Number.POSITIVE_INFINITY));
        },
      ),
    );
  });

  it("drops a line over the limit that it had started decoding, and goes on", () => {
    const long = new TextEncoder().encode(`${"é".repeat(40)}\r\nok\n${"x".repeat(50)}`);
    const chunks = cut(long, [3, 17, 40, 81, 90]);
    expect(split(chunks, 8, 60)).toEqual({ lines: ["ok", "x".repeat(50)], dropped: [80] });
    expect(split(chunks, 8, 80)).toEqual({
      lines: ["é".repeat(40), "ok", "x".repeat(50)],
      dropped: [],
    });
  });
});
