import type { Frame } from "../messages.js";
import { keptResultText } from "./kept-result-text.js";

/**
 * Encodes a frame as JSON text. The frame is trusted (it is typed); a success response must carry a
 * `result` that is not `undefined`, or the member would vanish from the text.
 */
export function encode(frame: Frame): string {
  const pieces = encodePieces(frame);
  // A concatenation, not a copy: whoever writes the text flattens it once.
  return typeof pieces === "string" ? pieces : pieces[0] + pieces[1] + pieces[2];
}

/**
 * Like {@link encode}, but a response whose result was decoded with its text kept (a relay of a large
 * result, see `decodeKeepingResult`) comes in three pieces: the envelope's start, the result's text
 * as it was received, and the closing brace. Writing them one after the other writes the frame
 * without serializing or copying the result. Any other frame is one string.
 */
export function encodePieces(frame: Frame): string | readonly [string, string, string] {
  const text = keptResultText((frame as { result?: unknown }).result);
  if (text !== undefined && !Array.isArray(frame) && isPlainResponse(frame)) {
    const { jsonrpc, id } = frame as { jsonrpc: string; id: unknown };
    return [
      `{"jsonrpc":${JSON.stringify(jsonrpc)},"id":${JSON.stringify(id)},"result":`,
      text,
      "}",
    ];
  }
  return JSON.stringify(frame);
}

/** `{ jsonrpc, id, result }` in that order and nothing else, as a Connection answers. */
function isPlainResponse(frame: object): boolean {
  let index = 0;
  for (const key in frame) {
    if (key !== PLAIN_RESPONSE_KEYS[index++]) return false;
  }
  return index === PLAIN_RESPONSE_KEYS.length;
}

const PLAIN_RESPONSE_KEYS = ["jsonrpc", "id", "result"];
