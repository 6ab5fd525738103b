/**
 * Decodes the UTF-8 bytes of one line piece by piece, as they arrive, into the same text as one
 * `TextDecoder.decode` of the whole line. In Node 20 a one-shot decode of ASCII takes a fast path
 * that TextDecoder's streaming mode never does (about a third of the CPU), while for other text the
 * streaming decoder is the faster one. So pieces are decoded one-shot while they are ASCII, each up
 * to its last complete character (the bytes of a character cut at its end go with the next piece),
 * and from the first piece that is not, the rest of the line goes through a streaming decoder.
 *
 * A cut before a byte that starts a character (or is ASCII) leaves a decoder in its initial state
 * (WHATWG Encoding, UTF-8 decoder: such a byte ends any unfinished sequence as an error), so the
 * pieces' texts joined are the whole line's text, invalid bytes included.
 */
export class Utf8Pieces {
  /** Strips a byte order mark at the start of the line, as a one-shot decode does. */
  readonly #lineStart = new TextDecoder();
  readonly #rest = new TextDecoder("utf-8", { ignoreBOM: true });
  readonly #stream = new TextDecoder("utf-8", { ignoreBOM: true });
  /** The bytes of a character cut at the end of the last piece (at most 3). */
  #carry: Uint8Array | undefined;
  #atLineStart = true;
  /** True once a piece of this line was not ASCII: the rest goes through `#stream`. */
  #streaming = false;

  /** The text of `piece` up to its last complete character (`final`: the line's last piece). */
  decode(piece: Uint8Array, final = false): string {
    if (this.#streaming) {
      if (final) this.#streaming = false;
      this.#atLineStart = final;
      return this.#stream.decode(piece, { stream: !final });
    }
    let bytes = piece;
    if (this.#carry !== undefined) {
      bytes = new Uint8Array(this.#carry.length + piece.length);
      bytes.set(this.#carry, 0);
      bytes.set(piece, this.#carry.length);
      this.#carry = undefined;
    }
    const end = final ? bytes.length : completeLength(bytes);
    if (end < bytes.length) this.#carry = bytes.slice(end);
    const atLineStart = this.#atLineStart;
    this.#atLineStart = final || (atLineStart && end === 0);
    if (end === 0) return "";
    const decoder = atLineStart ? this.#lineStart : this.#rest;
    const text = decoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
    // Fewer characters than bytes: not ASCII (a byte order mark stripped counts as such too).
    if (text.length !== end && !final) return text + this.#startStreaming();
    return text;
  }

  /** Forgets the line (after a dropped one): the next piece starts a line. */
  reset(): void {
    if (this.#streaming) this.#stream.decode();
    this.#streaming = false;
    this.#carry = undefined;
    this.#atLineStart = true;
  }

  /** Switches to the streaming decoder, handing it the carried bytes; returns what they decode to. */
  #startStreaming(): string {
    this.#streaming = true;
    const carry = this.#carry;
    this.#carry = undefined;
    // Usually the start of a cut character, kept until the rest arrives (bytes that cannot start
    // one decode at once, as errors).
    return carry === undefined ? "" : this.#stream.decode(carry, { stream: true });
  }
}

/** Where the last character of `bytes` starts when its bytes are not all there, else the length. */
function completeLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    // 10xxxxxx continues a character; any other byte starts one (or is invalid as a start).
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  // Four continuation bytes: no character is that long, so none is cut.
  return bytes.length;
}
