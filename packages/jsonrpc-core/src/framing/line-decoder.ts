import { LineTooLongError } from "../errors/transport-errors.js";

/** Default `maxLineBytes`: 16 MiB, room for a message carrying a few base64 images. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Options of {@link createLineDecoder}. */
export interface LineDecoderOptions {
  /** Longest line accepted, in UTF-8 bytes without the line ending. Default 16 MiB. */
  maxLineBytes?: number;
  /** Receives each non-blank line, without its `\n` or `\r\n`. */
  onLine(text: string): void;
  /** Receives a {@link LineTooLongError} for each overlong line; decoding goes on after it. */
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

/**
 * Creates a line decoder. Lines are split on the byte `0x0A` (which never occurs inside a multi-byte
 * UTF-8 sequence), so a character split across chunks is decoded whole. Text chunks are encoded to
 * UTF-8 first so that `maxLineBytes` counts bytes either way.
 */
export function createLineDecoder(options: LineDecoderOptions): LineDecoder {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const textDecoder = new TextDecoder();
  const textEncoder = new TextEncoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  // True while dropping the rest of an overlong line, up to its newline.
  let discarding = false;

  function emit(bytes: Uint8Array): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CARRIAGE_RETURN) end--;
    if (end > maxLineBytes) {
      options.onError(new LineTooLongError(maxLineBytes));
      return;
    }
    const text = textDecoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
    if (text.trim() === "") return;
    options.onLine(text);
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

  function pushBytes(chunk: Uint8Array): void {
    let start = 0;
    for (
      let newline = chunk.indexOf(NEWLINE);
      newline !== -1;
      newline = chunk.indexOf(NEWLINE, start)
    ) {
      if (discarding) discarding = false;
      else emit(takePending(chunk.subarray(start, newline)));
      start = newline + 1;
    }
    if (discarding || start === chunk.length) return;
    // Copy the tail: the caller may reuse its buffer after push() returns.
    const tail = chunk.slice(start);
    pending.push(tail);
    pendingBytes += tail.length;
    // +1 leaves room for a "\r" that a CRLF line ending may still add.
    if (pendingBytes > maxLineBytes + 1) {
      pending = [];
      pendingBytes = 0;
      discarding = true;
      options.onError(new LineTooLongError(maxLineBytes));
    }
  }

  return {
    push(chunk) {
      pushBytes(typeof chunk === "string" ? textEncoder.encode(chunk) : chunk);
    },
    end() {
      if (!discarding && pendingBytes > 0) emit(takePending(new Uint8Array(0)));
      pending = [];
      pendingBytes = 0;
      discarding = false;
    },
  };
}
