/** Length of every string `shortHash` returns. */
export const SHORT_HASH_LENGTH = 7;

/**
 * A short, stable, runtime-neutral hash of a string: FNV-1a (32 bit) in base 36, padded to
 * `SHORT_HASH_LENGTH` characters of `[0-9a-z]`. Not cryptographic; it only has to make shortened
 * names distinct and identical from one run to the next.
 */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(SHORT_HASH_LENGTH, "0");
}
