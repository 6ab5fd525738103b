import { describe, expect, it } from "vitest";
import { LineTooLongError } from "../errors/transport-errors.js";
import { createLineDecoder, type LineDecoderOptions } from "./line-decoder.js";

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
});
