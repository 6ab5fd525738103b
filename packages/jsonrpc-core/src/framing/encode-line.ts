import { encode, encodePieces } from "../codec/encode.js";
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
 * result (see `encodePieces`) the envelope's start, the result's kept text and `"}\n"`, so that the
 * result is neither serialized nor copied into a new string.
 */
export function encodeLinePieces(frame: Frame): string | readonly [string, string, string] {
  const pieces = encodePieces(frame);
  if (typeof pieces === "string") return `${pieces}\n`;
  return [pieces[0], pieces[1], "}\n"];
}
