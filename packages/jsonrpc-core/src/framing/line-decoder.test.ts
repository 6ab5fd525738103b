import { describe, expect, it } from "vitest";
import { LineTooLongError } from "../errors/transport-errors.js";
import {
  createLineDecoder,
  createLineSplitter,
  type DroppedLine,
  type LineDecoderOptions,
} from "./line-decoder.js";

function collect(options: Partial<LineDecoderOptions> = {}) {
  const lines: string[] = [];
  const errors: Error[] = [];
  const decoder = createLineDecoder({
    onLine: (text) => lines.push(text),
    onError: (error) => errors.push(error),
    ...options,
  });
  return { decoder, lines, errors };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("createLineDecoder", () => {
  it("splits one chunk holding several lines", () => {
    const { decoder, lines } = collect();
    decoder.push("a\nb\nc\n");
    expect(lines).toEqual(["a", "b", "c"]);
  });

  it("joins a line split across chunks", () => {
    const { decoder, lines } = collect();
    decoder.push(bytes('{"a":'));
    decoder.push(bytes("1}"));
    expect(lines).toEqual([]);
    decoder.push(bytes("\n"));
    expect(lines).toEqual(['{"a":1}']);
  });

  it("decodes a multi-byte character split across byte chunks", () => {
    const { decoder, lines } = collect();
    const encoded = bytes("héllo 🎛️\n");
    for (const byte of encoded) decoder.push(Uint8Array.of(byte));
    expect(lines).toEqual(["héllo 🎛️"]);
  });

  it("strips CRLF line endings, also when the CR and LF arrive apart", () => {
    const { decoder, lines } = collect();
    decoder.push("a\r\nb\r");
    decoder.push("\n");
    expect(lines).toEqual(["a", "b"]);
  });

  it("skips blank and whitespace-only lines", () => {
    const { decoder, lines } = collect();
    decoder.push("\n\r\n  \nx\n\n");
    expect(lines).toEqual(["x"]);
  });

  it("delivers a last line without newline on end()", () => {
    const { decoder, lines } = collect();
    decoder.push("a\nb");
    expect(lines).toEqual(["a"]);
    decoder.end();
    expect(lines).toEqual(["a", "b"]);
  });

  it("does not keep a reference to the caller's buffer", () => {
    const { decoder, lines } = collect();
    const buffer = bytes("abc");
    decoder.push(buffer);
    buffer.fill(0x7a);
    decoder.push("\n");
    expect(lines).toEqual(["abc"]);
  });

  it("reports an overlong line once and recovers at the next newline", () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 4 });
    decoder.push("ok\n12345");
    decoder.push("6789");
    decoder.push("0\nfine\n");
    expect(lines).toEqual(["ok", "fine"]);
    expect(errors).toHaveLength(1);
    expect(LineTooLongError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as LineTooLongError).maxLineBytes).toBe(4);
    expect(errors[0]?.message).toContain("4 bytes");
  });

  it("reports an overlong line that arrives complete in one chunk", () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 3 });
    decoder.push("abcd\nabc\n");
    expect(lines).toEqual(["abc"]);
    expect(errors).toHaveLength(1);
  });

  it("counts bytes, not characters, against the limit", () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 3 });
    decoder.push("éé\n"); // 4 bytes
    decoder.push("é\r\n"); // 2 bytes plus CRLF
    expect(lines).toEqual(["é"]);
    expect(errors).toHaveLength(1);
  });

  it("accepts a line of exactly the limit ending in CRLF split across chunks", () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 3 });
    decoder.push("abc\r");
    decoder.push("\n");
    expect(lines).toEqual(["abc"]);
    expect(errors).toEqual([]);
  });

  it("drops an overlong unterminated tail at end()", () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 2 });
    decoder.push("abcdef");
    decoder.end();
    expect(lines).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it("reports the dropped line's full length once it ends, across chunks and CRLF", () => {
    const { decoder, lines, errors } = collect({ maxLineBytes: 4 });
    decoder.push("123456");
    decoder.push("789");
    expect(errors).toEqual([]);
    decoder.push("0\r\nok\n");
    expect(lines).toEqual(["ok"]);
    expect((errors[0] as LineTooLongError).lineBytes).toBe(10);
    expect(errors[0]?.message).toContain("10 bytes");
  });

  it("keeps memory bounded while dropping a line far over the limit", () => {
    const { decoder, errors } = collect({ maxLineBytes: 1024 });
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    for (let index = 0; index < 64; index += 1) decoder.push(chunk);
    decoder.push("\n");
    expect((errors[0] as LineTooLongError).lineBytes).toBe(64 * 64 * 1024);
  });
});

describe("createLineSplitter", () => {
  it("hands over the first and last bytes of a dropped line", () => {
    const dropped: DroppedLine[] = [];
    const splitter = createLineSplitter({
      maxLineBytes: 1100,
      onLine: () => {},
      onDroppedLine: (line) => dropped.push(line),
    });
    const line = `<${"a".repeat(600)}${"b".repeat(600)}${"c".repeat(600)}>`;
    for (let index = 0; index < line.length; index += 7)
      splitter.push(line.slice(index, index + 7));
    splitter.push("\r\n");
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.lineBytes).toBe(line.length);
    expect(text(dropped[0]?.head ?? new Uint8Array())).toBe(line.slice(0, 1024));
    // The CR of the line ending took one of the 256 bytes kept.
    expect(text(dropped[0]?.tail ?? new Uint8Array())).toBe(line.slice(-255));
  });
});
