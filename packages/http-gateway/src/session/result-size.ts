/** What a string code unit can cost at most in JSON as UTF-8: the escape `\u001f` is 6 bytes. */
const MAX_BYTES_PER_CODE_UNIT = 6;
/** The longest number JSON.stringify writes (`-1.2345678901234567e-308`). */
const MAX_NUMBER_BYTES = 24;

/**
 * An upper bound of the UTF-8 bytes of `JSON.stringify(value)`, found without serializing: a string
 * counts 6 bytes per UTF-16 code unit, a number 24, and so on, so a 10 MB text costs one length
 * read instead of a 10 MB copy. Returns `Infinity` as soon as the bound passes `limit`, and for
 * anything whose serialization it cannot bound (an object with `toJSON`, a bigint); callers then
 * serialize to learn the exact size.
 */
export function jsonBytesBound(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") total += 2 + item.length * MAX_BYTES_PER_CODE_UNIT;
    else if (typeof item === "number") total += MAX_NUMBER_BYTES;
    else if (typeof item === "boolean" || item === null || item === undefined) total += 5;
    else if (typeof item !== "object") return Number.POSITIVE_INFINITY;
    else if (typeof (item as { toJSON?: unknown }).toJSON === "function") {
      return Number.POSITIVE_INFINITY;
    } else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const element of item) stack.push(element);
    } else {
      total += 2;
      for (const key of Object.keys(item)) {
        total += 4 + key.length * MAX_BYTES_PER_CODE_UNIT;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
    if (total > limit) return Number.POSITIVE_INFINITY;
  }
  return total;
}
