import type { Frame } from "../messages.js";

/**
 * Encodes a frame as JSON text. The frame is trusted (it is typed); a success response must carry a
 * `result` that is not `undefined`, or the member would vanish from the text.
 */
export function encode(frame: Frame): string {
  return JSON.stringify(frame);
}
