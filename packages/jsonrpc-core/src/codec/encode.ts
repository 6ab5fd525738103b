import type { Frame } from "../messages.js";

/**
 * Encoding frames as JSON text (whole, in pieces, as lines), and the kept texts of decoded results
 * that let a relay write a large result on as it was received.
 */

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

/**
 * The JSON text of decoded results, kept so that a relay can write a large result on without
 * serializing it again. Each kept text comes with a snapshot of the parsed value (every object,
 * array, key and primitive in a fixed order); the text is handed out only while a walk of the value
 * still matches the snapshot, so a result changed in place after decoding is serialized as it is now.
 */
interface KeptText {
  readonly text: string;
  /** The same text as UTF-8, in the pieces it arrived in, when known. */
  readonly bytes: readonly Uint8Array[] | undefined;
  readonly snapshot: readonly unknown[];
}

/** What is kept of a result: its text, and the text's UTF-8 bytes when they were kept too. */
export interface KeptResult {
  readonly text: string;
  readonly bytes: readonly Uint8Array[] | undefined;
}

/** Values (objects, arrays, keys, primitives) in a snapshot at most; larger results are not kept. */
export const MAX_SNAPSHOT_ENTRIES = 10_000;

const kept = new WeakMap<object, KeptText>();
/** False until a text is first kept: processes that never keep one skip the lookup. */
let anyKept = false;

/**
 * Keeps `text` (the JSON text `result` was parsed from, with no line break in it), and optionally
 * the same text as UTF-8 bytes, for {@link keptResult}. Returns false, keeping nothing, for a primitive or a value of more than
 * {@link MAX_SNAPSHOT_ENTRIES} entries.
 */
export function keepResultText(
  result: unknown,
  text: string,
  bytes?: readonly Uint8Array[],
): boolean {
  if (typeof result !== "object" || result === null) return false;
  const snapshot: unknown[] = [];
  const complete = walk(result, (entry) => {
    snapshot.push(entry);
    return snapshot.length <= MAX_SNAPSHOT_ENTRIES;
  });
  if (!complete) return false;
  kept.set(result, { text, bytes, snapshot });
  anyKept = true;
  return true;
}

/** What was kept of `result`, when anything was and the value is unchanged since; else undefined. */
export function keptResult(result: unknown): KeptResult | undefined {
  if (!anyKept || typeof result !== "object" || result === null) return undefined;
  const entry = kept.get(result);
  if (entry === undefined) return undefined;
  const { snapshot } = entry;
  let index = 0;
  const unchanged =
    walk(result, (value) => index < snapshot.length && value === snapshot[index++]) &&
    index === snapshot.length;
  if (unchanged) return entry;
  kept.delete(result);
  return undefined;
}

/**
 * Visits a JSON value depth first: each value, then for an array its length, for an object its key
 * count and each key before its value. Stops (returning false) when `visit` returns false. An
 * explicit stack, so deep nesting cannot overflow the call stack.
 */
function walk(root: object, visit: (entry: unknown) => boolean): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!visit(value)) return false;
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      if (!visit(value.length)) return false;
      for (let index = value.length - 1; index >= 0; index--) stack.push(value[index]);
      continue;
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (!visit(keys.length)) return false;
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index] as string;
      if (!visit(key)) return false;
      stack.push(record[key]);
    }
  }
  return true;
}
