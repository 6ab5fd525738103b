import { decode } from "../codec/codec.js";
import { decodeKeepingResult, type LineBytes } from "../codec/decode-keeping-result.js";
import { ErrorCode } from "../errors/error-code.js";
import { InvalidFrameError, LineTooLongError } from "../errors/transport-errors.js";
import type { Frame } from "../messages.js";
import type { FrameInfo } from "../transport.js";
import { type DroppedLine, DroppingLine, describeDroppedLine } from "./dropped-line.js";
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

export type { DroppedLine } from "./dropped-line.js";

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
 * The line decoder's machinery: splits chunks at newlines, handing each piece to the line pending
 * until its newline ({@link PendingLine}) or, once that line outgrew `maxLineBytes`, to the
 * overlong line being dropped ({@link DroppingLine}), of which only the two ends are kept, so
 * memory stays bounded by `maxLineBytes` plus a little, however long the line.
 */
export function createLineSplitter(options: LineSplitterOptions): LineDecoder {
  const textEncoder = new TextEncoder();
  // Keeps a byte order mark: `deliverLines` drops the one that starts a line, the first one too.
  const textDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const pending = new PendingLine(
    options,
    maxLineBytes,
    options.eagerDecodeBytes ?? EAGER_DECODE_BYTES,
  );
  // Set while dropping the rest of an overlong line, up to its newline.
  let dropping: DroppingLine | undefined;

  function finishDropping(line: DroppingLine): void {
    dropping = undefined;
    options.onDroppedLine(line.finish());
  }

  /**
   * Delivers the lines lying whole in `chunk` from `start` to its last newline (`last`), and returns
   * where the rest begins. When they fit the limit together, one decode serves them all.
   */
  function wholeLines(chunk: Uint8Array, start: number, last: number): number {
    if (last - start <= maxLineBytes) {
      deliverLines(textDecoder.decode(chunk.subarray(start, last)), options.onLine);
      return last + 1;
    }
    let from = start;
    for (let newline = chunk.indexOf(NEWLINE, from); newline !== -1; ) {
      pending.finish(chunk.subarray(from, newline));
      from = newline + 1;
      newline = chunk.indexOf(NEWLINE, from);
    }
    return from;
  }

  function pushBytes(chunk: Uint8Array): void {
    let start = 0;
    const first = chunk.indexOf(NEWLINE);
    if (first !== -1) {
      // The first line may end one begun in an earlier chunk; the others lie whole in this one.
      if (dropping === undefined) pending.finish(chunk.subarray(0, first));
      else {
        dropping.keep(chunk.subarray(0, first));
        finishDropping(dropping);
      }
      start = first + 1;
      // A chunk of one line ends with its newline: nothing more to look for.
      const last = start === chunk.length ? first : chunk.lastIndexOf(NEWLINE);
      if (last > first) start = wholeLines(chunk, start, last);
    }
    if (start === chunk.length) return;
    if (dropping !== undefined) dropping.keep(chunk.subarray(start));
    // Copy the tail: the caller may reuse its buffer after push() returns.
    else if (!pending.add(chunk.slice(start))) dropping = new DroppingLine(pending.drop());
  }

  return {
    push(chunk) {
      pushBytes(typeof chunk === "string" ? textEncoder.encode(chunk) : chunk);
    },
    end() {
      if (dropping === undefined) {
        pending.end();
        return;
      }
      finishDropping(dropping);
      pending.clear();
    },
  };
}

const BYTE_ORDER_MARK = 0xfeff;

/**
 * Delivers each non-blank line of `text` (whole lines decoded at once, joined by `\n`) as decoding
 * each line's bytes alone would have: without a trailing `\r`, nor a leading byte order mark (which
 * a decoder drops at the start of its input).
 */
function deliverLines(text: string, onLine: (line: string) => void): void {
  let start = 0;
  for (;;) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const from = text.charCodeAt(start) === BYTE_ORDER_MARK ? start + 1 : start;
    const to = end > from && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    const line = text.slice(from, to);
    if (line.trim() !== "") onLine(line);
    if (newline === -1) return;
    start = newline + 1;
  }
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

const CARRIAGE_RETURN = 0x0d;
const NO_BYTES = new Uint8Array(0);

/** Where a {@link PendingLine} delivers its line once it ends. */
export interface LineReceiver {
  /** `bytes`: for a line decoded as it arrived, its bytes (owned by the receiver from then on). */
  onLine(text: string, bytes?: LineBytes): void;
  /** A line that ended over `maxLineBytes`. */
  onDroppedLine(line: DroppedLine): void;
}

/**
 * The line received so far, up to its newline: its chunks, and once it grew past
 * `eagerDecodeBytes`, their text too, decoded chunk by chunk while the rest is still on its way
 * (instead of copied into one buffer and decoded at the newline).
 */
export class PendingLine {
  readonly #receiver: LineReceiver;
  readonly #maxLineBytes: number;
  /** Pending bytes from which the line is decoded as it arrives. */
  readonly #eagerDecodeBytes: number;
  readonly #textDecoder = new TextDecoder();
  readonly #pieces = new Utf8Pieces();
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  /** The text of the chunks so far, once the line grew past `eagerDecodeBytes`. */
  #decoded: string[] | undefined;

  constructor(receiver: LineReceiver, maxLineBytes: number, eagerDecodeBytes: number) {
    this.#receiver = receiver;
    this.#maxLineBytes = maxLineBytes;
    this.#eagerDecodeBytes = eagerDecodeBytes;
  }

  /**
   * Adds the next piece of the line (owned by the line from now on). False when the line outgrew
   * `maxLineBytes`: it must then be dropped ({@link drop}).
   */
  add(part: Uint8Array): boolean {
    this.#chunks.push(part);
    this.#bytes += part.length;
    // +1 leaves room for a "\r" that a CRLF line ending may still add.
    if (this.#bytes > this.#maxLineBytes + 1) return false;
    const decoded = this.#decoded;
    if (decoded !== undefined) decoded.push(this.#pieces.decode(part));
    else if (this.#bytes >= this.#eagerDecodeBytes) {
      this.#decoded = this.#chunks.map((one) => this.#pieces.decode(one));
    }
    return true;
  }

  /** Ends the line with `last` (the bytes before its newline) and delivers it. */
  finish(last: Uint8Array): void {
    const parts = this.#decoded;
    if (parts === undefined) {
      this.#emit(this.#take(last));
      return;
    }
    this.#decoded = undefined;
    const chunks = this.#chunks;
    const final = last.length > 0 ? last : (chunks[chunks.length - 1] as Uint8Array);
    const carriageReturn = final[final.length - 1] === CARRIAGE_RETURN;
    const length = this.#bytes + last.length - (carriageReturn ? 1 : 0);
    if (length > this.#maxLineBytes) {
      this.#pieces.reset();
      this.#emit(this.#take(last));
      return;
    }
    parts.push(this.#pieces.decode(last, true));
    // Copy the last piece: the caller may reuse its buffer after push() returns.
    const lineChunks = last.length > 0 ? [...chunks, last.slice()] : chunks;
    this.#chunks = [];
    this.#bytes = 0;
    const text = parts.join("");
    const line = carriageReturn ? text.slice(0, -1) : text;
    if (line.trim() !== "") this.#receiver.onLine(line, { chunks: lineChunks, length });
  }

  /** At the end of the stream: delivers a last line without a newline, and forgets the line. */
  end(): void {
    if (this.#bytes > 0) this.finish(NO_BYTES);
    this.clear();
  }

  /** Forgets the line's bytes. */
  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
  }

  /** Gives the line up (it is being dropped): its bytes so far, in one buffer. */
  drop(): Uint8Array {
    if (this.#decoded !== undefined) this.#pieces.reset();
    this.#decoded = undefined;
    return this.#take(NO_BYTES);
  }

  /** The line's bytes followed by `tail`, in one buffer; the line is empty after. */
  #take(tail: Uint8Array): Uint8Array {
    const chunks = this.#chunks;
    if (chunks.length === 0) return tail;
    const line = new Uint8Array(this.#bytes + tail.length);
    let offset = 0;
    for (const part of chunks) {
      line.set(part, offset);
      offset += part.length;
    }
    line.set(tail, offset);
    this.#chunks = [];
    this.#bytes = 0;
    return line;
  }

  /** Delivers a whole line's bytes (a trailing `\r` stripped), or describes it if too long. */
  #emit(bytes: Uint8Array): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CARRIAGE_RETURN) end--;
    if (end > this.#maxLineBytes) {
      this.#receiver.onDroppedLine(describeDroppedLine(bytes, end));
      return;
    }
    const text = this.#textDecoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
    if (text.trim() === "") return;
    this.#receiver.onLine(text);
  }
}
