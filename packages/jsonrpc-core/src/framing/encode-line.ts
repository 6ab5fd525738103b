import { encode } from "../codec/encode.js";
import type { Frame } from "../messages.js";

/**
 * Encodes a frame as one line of newline-delimited JSON. `JSON.stringify` escapes every newline
 * inside strings, so the only newline is the terminator.
 */
export function encodeLine(frame: Frame): string {
  return `${encode(frame)}\n`;
}
