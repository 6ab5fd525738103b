/** Fills the array with random bytes (default: `crypto.getRandomValues`). Injected for tests. */
export type RandomSource = (bytes: Uint8Array) => void;

/** Makes W3C trace and span ids. */
export interface IdGenerator {
  /** A new trace id: 32 lowercase hex digits, never all zero. */
  traceId(): string;
  /** A new span id: 16 lowercase hex digits, never all zero. */
  spanId(): string;
}

const hexDigitCodes = Uint8Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0));
const poolSize = 4096;
const zeroTraceId = "0".repeat(32);
const zeroSpanId = "0".repeat(16);

function defaultRandomSource(): RandomSource {
  return (bytes) => {
    globalThis.crypto.getRandomValues(bytes);
  };
}

/**
 * Creates an {@link IdGenerator}. Random bytes are drawn in blocks of 4 KiB, so the source is called
 * once per 256 trace ids rather than once per id.
 */
export function createIdGenerator(random: RandomSource = defaultRandomSource()): IdGenerator {
  const pool = new Uint8Array(poolSize);
  // The pool in hex, made once per draw (character codes, decoded to one string): an id is then
  // one slice of it, not 16 concatenations.
  const hexCodes = new Uint8Array(poolSize * 2);
  const decoder = new TextDecoder();
  let hexPool = "";
  let offset = poolSize;

  const next = (length: number): string => {
    for (;;) {
      if (offset + length > poolSize) {
        random(pool);
        for (let index = 0; index < poolSize; index += 1) {
          const byte = pool[index]!;
          hexCodes[index * 2] = hexDigitCodes[byte >> 4]!;
          hexCodes[index * 2 + 1] = hexDigitCodes[byte & 15]!;
        }
        hexPool = decoder.decode(hexCodes);
        offset = 0;
      }
      let zero = true;
      for (let index = offset; index < offset + length; index += 1) {
        if (pool[index] !== 0) {
          zero = false;
          break;
        }
      }
      const start = offset;
      offset += length;
      // All-zero ids are invalid (Trace Context sections 3.2.2.3, 3.2.2.4): draw again.
      if (!zero) return hexPool.slice(start * 2, offset * 2);
    }
  };

  // The usual case inline (one slice of the pool; an all-zero id is its zero string), `next` only
  // when the pool runs out or the id drawn is all zero: one call per id.
  return {
    traceId() {
      const start = offset;
      if (start + 16 <= poolSize) {
        offset = start + 16;
        const id = hexPool.slice(start * 2, offset * 2);
        if (id !== zeroTraceId) return id;
      }
      return next(16);
    },
    spanId() {
      const start = offset;
      if (start + 8 <= poolSize) {
        offset = start + 8;
        const id = hexPool.slice(start * 2, offset * 2);
        if (id !== zeroSpanId) return id;
      }
      return next(8);
    },
  };
}
