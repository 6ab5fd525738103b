import type { LineBytes } from "../codec/decode-keeping-result.js";
import { type DroppedLine, describeDroppedLine } from "./dropped-line.js";
import { Utf8Pieces } from "./utf8-pieces.js";

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
