import { encode, envelopeStart, relayedResult } from "../codec/encode.js";
import type { Frame } from "../messages.js";

/**
 * Encodes a frame as one line of newline-delimited JSON. `JSON.stringify` escapes every newline
 * inside strings, so the only newline is the terminator.
 */
export function encodeLine(frame: Frame): string {
  return `${encode(frame)}\n`;
}

/**
 * {@link encodeLine} in pieces to write one after the other: one string, or for a relayed large
 * result (see `encodePieces`) the envelope's start, the result as it was received (its UTF-8 bytes
 * in the chunks they arrived in, when the decoder kept them, else its text) and `"}\n"`, so that
 * the result is neither serialized nor copied, nor encoded again.
 */
export function encodeLinePieces(frame: Frame): string | readonly (string | Uint8Array)[] {
  const relayed = relayedResult(frame);
  if (relayed === undefined) return `${JSON.stringify(frame)}\n`;
  const start = envelopeStart(frame);
  if (relayed.bytes === undefined) return [start, relayed.text, "}\n"];
  return [start, ...relayed.bytes, "}\n"];
}
