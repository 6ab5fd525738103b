import { describe, expect, it } from "vitest";
import { encodeLine, encodeLinePieces } from "../codec/codec.js";
import { InvalidFrameError, LineTooLongError } from "../errors/transport-errors.js";
import type { Frame } from "../messages.js";
import type { FrameInfo } from "../transport.js";
import { createFrameDecoder, RELAY_MIN_CHARS } from "./line-decoder.js";

function collect(maxLineBytes?: number, relayLargeResults?: boolean) {
  const frames: [Frame, FrameInfo][] = [];
  const errors: Error[] = [];
  const decoder = createFrameDecoder({
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
    ...(relayLargeResults === undefined ? {} : { relayLargeResults }),
    onFrame: (frame, info) => frames.push([frame, info]),
    onError: (error) => errors.push(error),
  });
  return { decoder, frames, errors };
}

describe("createFrameDecoder", () => {
  it("decodes lines written by encodeLine", () => {
    const { decoder, frames } = collect();
    const request = { jsonrpc: "2.0", id: 0, method: "a\nb" } as const;
    const line = encodeLine(request);
    expect(line.indexOf("\n")).toBe(line.length - 1);
    decoder.push(line);
    expect(frames).toEqual([[request, {}]]);
  });

  it("reports a non-JSON line with its -32700 response and keeps reading", () => {
    const { decoder, frames, errors } = collect();
    decoder.push('Debugger attached.\n{"jsonrpc":"2.0","method":"n"}\n');
    expect(frames).toHaveLength(1);
    expect(errors).toHaveLength(1);
    const error = errors[0];
    expect(InvalidFrameError.isInstance(error)).toBe(true);
    expect((error as InvalidFrameError).response).toMatchObject({
      id: null,
      error: { code: -32700 },
    });
  });

  it("reports an invalid message with its -32600 response and the readable id", () => {
    const { decoder, errors } = collect();
    decoder.push('{"jsonrpc":"2.0","id":7,"method":3}\n');
    expect((errors[0] as InvalidFrameError).response).toMatchObject({
      id: 7,
      error: { code: -32600 },
    });
  });

  it("passes the rejections of a batch in info.rejected", () => {
    const { decoder, frames } = collect();
    decoder.push('[{"jsonrpc":"2.0","method":"n"},5]\n');
    expect(frames[0]?.[0]).toEqual([{ jsonrpc: "2.0", method: "n" }]);
    expect(frames[0]?.[1].rejected).toHaveLength(1);
  });

  it("reports an overlong line and decodes the next", () => {
    const { decoder, frames, errors } = collect(40);
    decoder.push(encodeLine({ jsonrpc: "2.0", method: "x".repeat(100) }));
    decoder.push(encodeLine({ jsonrpc: "2.0", method: "y" }));
    expect(LineTooLongError.isInstance(errors[0])).toBe(true);
    expect(frames).toEqual([[{ jsonrpc: "2.0", method: "y" }, {}]]);
  });

  it("names the id and kind of a dropped response, whichever end of the line holds the id", () => {
    const { decoder, errors } = collect(64);
    const big = "x".repeat(200);
    decoder.push(`{"jsonrpc":"2.0","id":3,"result":{"text":"${big}"}}\n`);
    decoder.push(`{"result":{"text":"${big}"},"jsonrpc":"2.0","id":"s"}\n`);
    decoder.push(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"a":"${big}"}}\n`);
    expect(errors.map((error) => (error as LineTooLongError).id)).toEqual([3, "s", 4]);
    expect(errors.map((error) => (error as LineTooLongError).messageType)).toEqual([
      "response",
      "response",
      "request",
    ]);
    expect(errors[0]?.message).toBe(
      "The response to request 3 of 245 bytes is over the limit of 64 bytes (maxLineBytes); dropped",
    );
  });

  it("names no id when neither end of the dropped line shows one", () => {
    const { decoder, errors } = collect(16);
    decoder.push(`${"z".repeat(100)}\n`);
    expect((errors[0] as LineTooLongError).id).toBeUndefined();
    expect(errors[0]?.message).toBe(
      "A line of 100 bytes is over the limit of 16 bytes (maxLineBytes); dropped",
    );
  });

  describe("relayLargeResults", () => {
    /** A response line of `chars` characters whose result text is not as JSON.stringify writes it. */
    function responseLine(chars: number): { line: string; resultText: string } {
      const start = '{"jsonrpc":"2.0","id":1,"result":{ "content" : [{"type":"text","text":"';
      const end = '\u00e9"}] }}';
      const text = "é".repeat(chars - start.length - end.length);
      return {
        line: `${start}${text}${end}\r\n`,
        resultText: `${start.slice(33)}${text}${end.slice(0, -1)}`,
      };
    }

    /** Decodes `line` (text or bytes) in 16 KiB chunks and encodes its result again under id 2. */
    function relayed(
      line: string | Uint8Array,
      relayLargeResults?: boolean,
      chunkBytes = 16 * 1024,
    ) {
      const { decoder, frames } = collect(undefined, relayLargeResults);
      const bytes = typeof line === "string" ? new TextEncoder().encode(line) : line;
      for (let at = 0; at < bytes.length; at += chunkBytes)
        decoder.push(bytes.subarray(at, at + chunkBytes));
      const frame = frames[0]?.[0] as { result: unknown };
      return encodeLinePieces({ jsonrpc: "2.0", id: 2, result: frame.result });
    }

    const head = '{"jsonrpc":"2.0","id":2,"result":';
    const bytesOf = (pieces: readonly (string | Uint8Array)[]) =>
      pieces.filter((piece): piece is Uint8Array => typeof piece !== "string");

    it("writes the bytes of the result of a line of 64 KiB characters or more on as they came", () => {
      const { line, resultText } = responseLine(RELAY_MIN_CHARS);
      const pieces = relayed(line, true);
      expect(pieces[0]).toBe(head);
      expect(pieces.at(-1)).toBe("}\n");
      // Between the envelope and the closing brace: views of the chunks as they arrived.
      expect(bytesOf(pieces as readonly (string | Uint8Array)[])).toHaveLength(pieces.length - 2);
      expect(Buffer.concat(bytesOf(pieces as readonly (string | Uint8Array)[])).toString()).toBe(
        resultText,
      );
    });

    it("finds the result's bytes after a byte order mark and multi-byte ids", () => {
      const { line, resultText } = responseLine(RELAY_MIN_CHARS);
      const marked = Buffer.concat([
        Buffer.of(0xef, 0xbb, 0xbf),
        Buffer.from(line.replace('"id":1', '"id":"é😀"')),
      ]);
      const pieces = relayed(marked, true, 1000) as readonly (string | Uint8Array)[];
      expect(Buffer.concat(bytesOf(pieces)).toString()).toBe(resultText);
    });

    it("writes the text of a result whose line was not valid UTF-8 or held U+FFFD", () => {
      const { line } = responseLine(RELAY_MIN_CHARS);
      const invalid = Buffer.from(line);
      invalid[invalid.indexOf("é") + 1] = 0x41; // é's second byte: "\ufffdA"
      for (const bytes of [invalid, Buffer.from(line.replace("é", "\ufffd"))]) {
        const pieces = relayed(bytes, true);
        expect(pieces).toHaveLength(3);
        expect(typeof pieces[1]).toBe("string");
        expect((pieces[1] as string).includes("\ufffd")).toBe(true);
      }
    });

    it("writes the text of a result on a long line that arrived in one chunk", () => {
      const { line, resultText } = responseLine(RELAY_MIN_CHARS);
      expect(relayed(line, true, line.length * 2)).toEqual([head, resultText, "}\n"]);
    });

    it("serializes the result of a shorter line, and of any line when not asked to relay", () => {
      expect(typeof relayed(responseLine(RELAY_MIN_CHARS - 1).line, true)).toBe("string");
      expect(typeof relayed(responseLine(RELAY_MIN_CHARS).line)).toBe("string");
      const pieces = relayed(responseLine(RELAY_MIN_CHARS).line, false);
      expect(JSON.parse(pieces as string).result.content[0].text.endsWith("éé")).toBe(true);
    });
  });
});
