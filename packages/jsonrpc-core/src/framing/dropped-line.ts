/** Bytes kept from the start and from the end of a dropped line, to name what was dropped. */
const HEAD_BYTES = 1024;
const TAIL_BYTES = 256;
const CARRIAGE_RETURN = 0x0d;

/** What is known of a dropped overlong line: its size and a few bytes from each end. */
export interface DroppedLine {
  /** The line's length in bytes, without its line ending. */
  readonly lineBytes: number;
  /** Up to the first 1 KiB of the line. */
  readonly head: Uint8Array;
  /** Up to the last 256 bytes of the line. */
  readonly tail: Uint8Array;
}

/** Describes a whole line of `lineBytes` (the first bytes of `bytes`), copying its two ends. */
export function describeDroppedLine(bytes: Uint8Array, lineBytes: number): DroppedLine {
  return {
    lineBytes,
    head: bytes.slice(0, Math.min(lineBytes, HEAD_BYTES)),
    tail: bytes.slice(Math.max(0, lineBytes - TAIL_BYTES), lineBytes),
  };
}

/**
 * An overlong line being dropped up to its newline: only its length and its two ends are kept, so
 * memory stays bounded however long the line.
 */
export class DroppingLine {
  readonly #head: Uint8Array;
  #tail: Uint8Array;
  #lineBytes: number;

  /** Starts with the line's bytes so far. */
  constructor(start: Uint8Array) {
    const { head, tail, lineBytes } = describeDroppedLine(start, start.length);
    this.#head = head;
    this.#tail = tail;
    this.#lineBytes = lineBytes;
  }

  /** Counts the next piece of the line, keeping its end. */
  keep(part: Uint8Array): void {
    this.#lineBytes += part.length;
    this.#tail =
      part.length >= TAIL_BYTES ? part.slice(part.length - TAIL_BYTES) : joinTail(this.#tail, part);
  }

  /** The whole dropped line, without the `\r` of a CRLF ending. */
  finish(): DroppedLine {
    const tail = this.#tail;
    let lineBytes = this.#lineBytes;
    let tailEnd = tail.length;
    if (tailEnd > 0 && tail[tailEnd - 1] === CARRIAGE_RETURN) {
      tailEnd--;
      lineBytes--;
    }
    return { lineBytes, head: this.#head, tail: tail.subarray(0, tailEnd) };
  }
}

function joinTail(previous: Uint8Array, part: Uint8Array): Uint8Array {
  const keep = Math.min(previous.length, TAIL_BYTES - part.length);
  const joined = new Uint8Array(keep + part.length);
  joined.set(previous.subarray(previous.length - keep), 0);
  joined.set(part, keep);
  return joined;
}
