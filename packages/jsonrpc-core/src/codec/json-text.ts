/** Small helpers for reading pieces of JSON text. */

/** `JSON.parse(text)`, or undefined when the text is not JSON (a parse never gives undefined). */
export function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** JSON whitespace: space, tab, line feed, carriage return (RFC 8259 section 2); not `trim()`'s. */
function isWhitespace(char: number): boolean {
  return char === 0x20 || char === 0x09 || char === 0x0a || char === 0x0d;
}

/** The index of the first character from `from` on that is not JSON whitespace. */
export function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && isWhitespace(text.charCodeAt(at))) at++;
  return at;
}

/** The index of the last character before `end` that is not JSON whitespace (-1 when none). */
export function lastNonWhitespace(text: string, end: number): number {
  let at = end - 1;
  while (at >= 0 && isWhitespace(text.charCodeAt(at))) at--;
  return at;
}
