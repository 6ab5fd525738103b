import type { Frame } from "../messages.js";
import { type KeptResult, keptResult } from "./kept-result-text.js";

/**
 * Encodes a frame as JSON text. The frame is trusted (it is typed); a success response must carry a
 * `result` that is not `undefined`, or the member would vanish from the text.
 */
export function encode(frame: Frame): string {
  const relayed = relayedResult(frame);
  if (relayed === undefined) return JSON.stringify(frame);
  // A concatenation, not a copy: whoever writes the text flattens it once.
  return `${envelopeStart(frame)}${relayed.text}}`;
}

/**
 * Like {@link encode}, but a response whose result was decoded with its text kept (a relay of a large
 * result, see `decodeKeepingResult`) comes in three pieces: the envelope's start, the result's text
 * as it was received, and the closing brace. Writing them one after the other writes the frame
 * without serializing or copying the result. Any other frame is one string.
 */
export function encodePieces(frame: Frame): string | readonly [string, string, string] {
  const relayed = relayedResult(frame);
  if (relayed === undefined) return JSON.stringify(frame);
  return [envelopeStart(frame), relayed.text, "}"];
}

/** What was kept of the result of a plain `{ jsonrpc, id, result }` response, if anything. */
export function relayedResult(frame: Frame): KeptResult | undefined {
  const kept = keptResult((frame as { result?: unknown }).result);
  return kept !== undefined && !Array.isArray(frame) && isPlainResponse(frame) ? kept : undefined;
}

/** `{"jsonrpc":"2.0","id":<id>,"result":` for a response that {@link relayedResult} accepted. */
export function envelopeStart(frame: Frame): string {
  const { jsonrpc, id } = frame as { jsonrpc: string; id: unknown };
  return `{"jsonrpc":${JSON.stringify(jsonrpc)},"id":${JSON.stringify(id)},"result":`;
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
