import { decode } from "../codec/codec.js";
import { decodeKeepingResult, type LineBytes } from "../codec/decode-keeping-result.js";
import { ErrorCode } from "../errors/error-code.js";
import { InvalidFrameError, LineTooLongError } from "../errors/transport-errors.js";
import type { Frame } from "../messages.js";
import type { FrameInfo } from "../transport.js";
import { sniffEnvelope } from "./sniff-envelope.js";
import { Utf8Pieces } from "./utf8-pieces.js";

/**
 * Newline-delimited JSON-RPC, the way stdio transports read: a byte stream split into lines within
 * a length limit ({@link createLineDecoder}, {@link createLineSplitter}), and each line decoded
 * into a frame ({@link createFrameDecoder}).
 */

/**
 * Default `maxLineBytes`: 64 MiB, room for a tool result of 50 MB (a few large base64 images or a big
 * file) with its JSON escaping.
 */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Bytes kept from the start and from the end of a dropped line, to name what was dropped. */
const HEAD_BYTES = 1024;
const TAIL_BYTES = 256;
/**
 * A line pending past this many bytes is decoded chunk by chunk as it arrives (while the rest is
 * still on its way) instead of copied into one buffer and decoded at its newline.
 */
const EAGER_DECODE_BYTES = 64 * 1024;

/** Options of {@link createLineDecoder}. */
export interface LineDecoderOptions {
  /** Longest line accepted, in UTF-8 bytes without the line ending. Default 64 MiB. */
  maxLineBytes?: number;
  /** Receives each non-blank line, without its `\n` or `\r\n`. */
  onLine(text: string): void;
  /**
   * Receives a {@link LineTooLongError} for each overlong line, once the whole line was dropped (at
   * its newline or at `end()`); decoding goes on after it.
   */
  onError(error: Error): void;
}

/** Splits a byte or text stream into lines (newline-delimited JSON framing). */
export interface LineDecoder {
  /**
   * Feeds the next chunk. A byte chunk may end anywhere, even inside a multi-byte UTF-8 character; a
   * text chunk must not split a surrogate pair (text from a UTF-8 stream decoder never does).
   */
  push(chunk: Uint8Array | string): void;
  /** Ends the stream: a last line without a newline is delivered. */
  end(): void;
}

/** What is known of a dropped overlong line: its size and a few bytes from each end. */
export interface DroppedLine {
  /** The line's length in bytes, without its line ending. */
  readonly lineBytes: number;
  /** Up to the first 1 KiB of the line. */
  readonly head: Uint8Array;
  /** Up to the last 256 bytes of the line. */
  readonly tail: Uint8Array;
}

/** Options of the internal splitter: a dropped line is described instead of reported. */
export interface LineSplitterOptions {
  maxLineBytes?: number;
  /** Pending bytes from which a line is decoded as it arrives (default 64 KiB; for tests). */
  eagerDecodeBytes?: number;
  /** `bytes`: for a line decoded as it arrived, its bytes (owned by the splitter, never reused). */
  onLine(text: string, bytes?: LineBytes): void;
  onDroppedLine(line: DroppedLine): void;
}

/**
 * Creates a line decoder. Lines are split on the byte `0x0A` (which never occurs inside a multi-byte
 * UTF-8 sequence), so a character split across chunks is decoded whole. Text chunks are encoded to
 * UTF-8 first so that `maxLineBytes` counts bytes either way.
 */
export function createLineDecoder(options: LineDecoderOptions): LineDecoder {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  return createLineSplitter({
    maxLineBytes,
    onLine: (text) => options.onLine(text),
    onDroppedLine: (line) =>
      options.onError(new LineTooLongError(maxLineBytes, { lineBytes: line.lineBytes })),
  });
}

/**
 * The line decoder's machinery. While an overlong line is being dropped only its first and last
 * bytes are kept, so memory stays bounded by `maxLineBytes` plus a little, however long the line.
 */
export function createLineSplitter(options: LineSplitterOptions): LineDecoder {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const textDecoder = new TextDecoder();
  const textEncoder = new TextEncoder();
  const eagerDecodeBytes = options.eagerDecodeBytes ?? EAGER_DECODE_BYTES;
  const pieces = new Utf8Pieces(); // a long pending line's, chunk by chunk
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  // The text of the pending chunks so far, once the line grew past eagerDecodeBytes.
  let decoded: string[] | undefined;
  // Set while dropping the rest of an overlong line, up to its newline.
  let dropping: { head: Uint8Array; tail: Uint8Array; lineBytes: number } | undefined;

  function emit(bytes: Uint8Array): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CARRIAGE_RETURN) end--;
    if (end > maxLineBytes) {
      options.onDroppedLine({
        lineBytes: end,
        head: bytes.slice(0, Math.min(end, HEAD_BYTES)),
        tail: bytes.slice(Math.max(0, end - TAIL_BYTES), end),
      });
      return;
    }
    const text = textDecoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
    if (text.trim() === "") return;
    options.onLine(text);
  }

  /** Decodes the chunk just added to a long pending line (all of them, when it just grew long). */
  function decodeEagerly(part: Uint8Array): void {
    if (decoded !== undefined) decoded.push(pieces.decode(part));
    else if (pendingBytes >= eagerDecodeBytes) decoded = pending.map((one) => pieces.decode(one));
  }

  /** Ends the pending line with `last` (the bytes before its newline). */
  function finishLine(last: Uint8Array): void {
    const parts = decoded;
    if (parts === undefined) {
      emit(takePending(last));
      return;
    }
    decoded = undefined;
    const final = last.length > 0 ? last : (pending[pending.length - 1] as Uint8Array);
    const carriageReturn = final[final.length - 1] === CARRIAGE_RETURN;
    const length = pendingBytes + last.length - (carriageReturn ? 1 : 0);
    if (length > maxLineBytes) {
      pieces.reset();
      emit(takePending(last));
      return;
    }
    parts.push(pieces.decode(last, true));
    // Copy the last piece: the caller may reuse its buffer after push() returns.
    const chunks = last.length > 0 ? [...pending, last.slice()] : pending;
    pending = [];
    pendingBytes = 0;
    const text = parts.join("");
    const line = carriageReturn ? text.slice(0, -1) : text;
    if (line.trim() !== "") options.onLine(line, { chunks, length });
  }

  function takePending(tail: Uint8Array): Uint8Array {
    if (pending.length === 0) return tail;
    const line = new Uint8Array(pendingBytes + tail.length);
    let offset = 0;
    for (const part of pending) {
      line.set(part, offset);
      offset += part.length;
    }
    line.set(tail, offset);
    pending = [];
    pendingBytes = 0;
    return line;
  }

  function startDropping(): void {
    if (decoded !== undefined) pieces.reset();
    decoded = undefined;
    const line = takePending(new Uint8Array(0));
    dropping = {
      head: line.slice(0, HEAD_BYTES),
      tail: line.slice(Math.max(0, line.length - TAIL_BYTES)),
      lineBytes: line.length,
    };
  }

  function keepDropping(part: Uint8Array): void {
    if (dropping === undefined) return;
    dropping.lineBytes += part.length;
    dropping.tail =
      part.length >= TAIL_BYTES
        ? part.slice(part.length - TAIL_BYTES)
        : joinTail(dropping.tail, part);
  }

  function finishDropping(): void {
    if (dropping === undefined) return;
    const { head, tail } = dropping;
    let { lineBytes } = dropping;
    dropping = undefined;
    let tailEnd = tail.length;
    if (tailEnd > 0 && tail[tailEnd - 1] === CARRIAGE_RETURN) {
      tailEnd--;
      lineBytes--;
    }
    options.onDroppedLine({ lineBytes, head, tail: tail.subarray(0, tailEnd) });
  }

  function pushBytes(chunk: Uint8Array): void {
    let start = 0;
    for (
      let newline = chunk.indexOf(NEWLINE);
      newline !== -1;
      newline = chunk.indexOf(NEWLINE, start)
    ) {
      if (dropping !== undefined) {
        keepDropping(chunk.subarray(start, newline));
        finishDropping();
      } else {
        finishLine(chunk.subarray(start, newline));
      }
      start = newline + 1;
    }
    if (start === chunk.length) return;
    if (dropping !== undefined) {
      keepDropping(chunk.subarray(start));
      return;
    }
    // Copy the tail: the caller may reuse its buffer after push() returns.
    const tail = chunk.slice(start);
    pending.push(tail);
    pendingBytes += tail.length;
    // +1 leaves room for a "\r" that a CRLF line ending may still add.
    if (pendingBytes > maxLineBytes + 1) startDropping();
    else decodeEagerly(tail);
  }

  return {
    push(chunk) {
      pushBytes(typeof chunk === "string" ? textEncoder.encode(chunk) : chunk);
    },
    end() {
      if (dropping !== undefined) finishDropping();
      else if (pendingBytes > 0) finishLine(new Uint8Array(0));
      pending = [];
      pendingBytes = 0;
    },
  };
}

function joinTail(previous: Uint8Array, part: Uint8Array): Uint8Array {
  const keep = Math.min(previous.length, TAIL_BYTES - part.length);
  const joined = new Uint8Array(keep + part.length);
  joined.set(previous.subarray(previous.length - keep), 0);
  joined.set(part, keep);
  return joined;
}

/** Options of {@link createFrameDecoder}. */
export interface FrameDecoderOptions {
  /** Longest line accepted, in UTF-8 bytes. Default 64 MiB. */
  maxLineBytes?: number;
  /** Receives each valid frame; `info.rejected` lists the -32600 responses owed for a batch. */
  onFrame(frame: Frame, info: FrameInfo): void;
  /**
   * Receives an {@link InvalidFrameError} for each line that is not JSON-RPC (send its `response`
   * back) and a `LineTooLongError` for each overlong line, carrying the message's id and kind when
   * they could be read from the ends of the line. Decoding goes on with the next line.
   */
  onError(error: Error): void;
  /**
   * For relays (a gateway): a success response on a line of 64 KiB or more keeps the text of its
   * `result`, and encoding that same result again (`encode`, `encodeLine`, `encodeLinePieces`)
   * writes the text as it came instead of serializing the result, unless the result was changed
   * in place since. The text stays in memory as long as the result does. Default false.
   */
  relayLargeResults?: boolean;
}

/** Lines from which {@link FrameDecoderOptions.relayLargeResults} keeps a result's text. */
export const RELAY_MIN_CHARS = 64 * 1024;

/**
 * Newline-delimited JSON-RPC: splits a stream into lines and decodes each into a frame, the way
 * stdio transports read. A bad line is reported and skipped; the stream is never lost.
 */
export function createFrameDecoder(options: FrameDecoderOptions): LineDecoder {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const textDecoder = new TextDecoder();
  const relay = options.relayLargeResults === true;
  return createLineSplitter({
    maxLineBytes,
    onLine(text: string, bytes?: LineBytes) {
      const result =
        relay && text.length >= RELAY_MIN_CHARS ? decodeKeepingResult(text, bytes) : decode(text);
      if (!result.ok) {
        const reason =
          result.response.error.code === ErrorCode.ParseError ? "not JSON" : "not JSON-RPC";
        options.onError(
          new InvalidFrameError(`Received a line that is ${reason}`, result.response),
        );
        return;
      }
      options.onFrame(
        result.frame,
        result.rejected.length > 0 ? { rejected: result.rejected } : {},
      );
    },
    onDroppedLine(line: DroppedLine) {
      const hint = sniffEnvelope(textDecoder.decode(line.head), textDecoder.decode(line.tail));
      options.onError(new LineTooLongError(maxLineBytes, { lineBytes: line.lineBytes, ...hint }));
    },
  });
}
