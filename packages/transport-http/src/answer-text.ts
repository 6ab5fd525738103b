import { encodeLinePieces, encodePieces, type JSONRPCResponse } from "@patchbay/jsonrpc-core";
import type { HttpResponseSink } from "./http-io.js";
import { utf8Length } from "./http-io.js";

/**
 * A response relayed as it was received: the envelope's start (`{"jsonrpc":"2.0","id":…,"result":`),
 * the result's UTF-8 bytes in the chunks a relay read them in (`createFrameDecoder`'s
 * `relayLargeResults`), and `}`. Written piece by piece, the result is neither serialized nor
 * copied nor encoded again. A kept text holds no CR or LF (jsonrpc-core keeps none that does), so
 * it fits on one SSE `data:` line as it is.
 */
export interface RelayedAnswer {
  readonly pieces: readonly (string | Uint8Array)[];
  /** UTF-8 bytes of all the pieces. */
  readonly bytes: number;
  /** UTF-16 code units of the text, as a serialized response's `length`. */
  readonly length: number;
}

/** A response's JSON text: a string, or a {@link RelayedAnswer}. */
export type AnswerText = string | RelayedAnswer;

/**
 * The JSON text of a response, serialized once: a result a relay kept with its bytes comes as
 * those bytes (see {@link RelayedAnswer}); a kept result without bytes as its kept text; any other
 * response as `JSON.stringify` writes it.
 */
export function answerText(response: JSONRPCResponse): AnswerText {
  const kept = encodePieces(response);
  if (typeof kept === "string") return kept;
  const [start, text] = kept;
  const line = encodeLinePieces(response);
  // The same check again (a walk of the result): the bytes, when the decoder kept them.
  if (typeof line === "string" || line.length < 3 || typeof line[1] === "string") {
    return `${start}${text}}`;
  }
  // `[start, ...bytes, "}\n"]`: a body ends with the brace alone.
  const pieces = line.slice(0, -1);
  pieces.push("}");
  let bytes = utf8Length(start) + 1;
  for (let index = 1; index < pieces.length - 1; index++) {
    bytes += (pieces[index] as Uint8Array).byteLength;
  }
  const length = start.length + text.length + 1;
  return { pieces, bytes, length };
}

/**
 * How much an answer text counts against `maxResponseBytes` and SSE buffer limits: its UTF-16 code
 * units, as for any serialized response, so that a relayed result passes or fails the same limit.
 */
export function answerSize(text: AnswerText): number {
  return text.length;
}

/** Node's `ServerResponse` (and its socket) can hold writes back and send them in one `writev`. */
interface Corkable {
  cork?: () => void;
  uncork?: () => void;
}

/**
 * Writes pieces one after the other, corked where the response can be, so that they leave in one
 * `writev`. Returns false when the client has not read what was written before (backpressure).
 */
export function writePieces(
  response: HttpResponseSink,
  pieces: readonly (string | Uint8Array)[],
): boolean {
  const corkable = response as HttpResponseSink & Corkable;
  corkable.cork?.();
  let flushed = true;
  for (const piece of pieces) flushed = response.write(piece) && flushed;
  corkable.uncork?.();
  return flushed;
}
