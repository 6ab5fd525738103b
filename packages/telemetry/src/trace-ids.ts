/** Fills the array with random bytes (default: `crypto.getRandomValues`). Injected for tests. */
export type RandomSource = (bytes: Uint8Array) => void;

/** Makes W3C trace and span ids. */
export interface IdGenerator {
  /** A new trace id: 32 lowercase hex digits, never all zero. */
  traceId(): string;
  /** A new span id: 16 lowercase hex digits, never all zero. */
  spanId(): string;
}

const hexByte = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, "0"));
const poolSize = 4096;

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
  // The pool in hex, made once per draw: an id is then one slice of it, not 16 concatenations.
  let hexPool = "";
  let offset = poolSize;

  const next = (length: number): string => {
    for (;;) {
      if (offset + length > poolSize) {
        random(pool);
        const digits: string[] = new Array(poolSize);
        for (let index = 0; index < poolSize; index += 1) digits[index] = hexByte[pool[index]!]!;
        hexPool = digits.join("");
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

  return { traceId: () => next(16), spanId: () => next(8) };
}
