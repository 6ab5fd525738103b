import { ErrorCode } from "../errors/error-code.js";
import type { Frame, JSONRPCErrorResponse, JSONRPCId, JSONRPCMessage } from "../messages.js";

/**
 * The JSON-RPC codec: JSON text decoded into validated frames ({@link decode}, {@link decodeValue}),
 * frames encoded as JSON text, whole, in pieces or as lines ({@link encode}, {@link encodeLine}),
 * and the kept texts of decoded results that let a relay write a large result on as it was received.
 */

/**
 * What {@link decode} makes of one piece of text. `ok: true` carries the frame and, for a batch, the
 * -32600 responses owed for its invalid elements (empty otherwise). `ok: false` carries the one
 * error response owed for the whole text.
 */
export type DecodeResult =
  | { ok: true; frame: Frame; rejected: JSONRPCErrorResponse[] }
  | { ok: false; response: JSONRPCErrorResponse };

/** Decodes one JSON text into a frame, applying the JSON-RPC 2.0 validity and batch rules. */
export function decode(text: string): DecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      response: errorResponse(null, ErrorCode.ParseError, "Parse error", reason),
    };
  }
  return decodeValue(value);
}

/** Like {@link decode}, for a value that is already parsed (for example an HTTP JSON body). */
export function decodeValue(value: unknown): DecodeResult {
  if (!Array.isArray(value)) {
    const problem = findMessageProblem(value);
    if (problem === undefined) return { ok: true, frame: value as JSONRPCMessage, rejected: [] };
    return { ok: false, response: invalidRequest(readableId(value), problem) };
  }
  // JSON-RPC 2.0 section 6: an empty array is one invalid request, not an empty batch.
  if (value.length === 0) {
    return { ok: false, response: invalidRequest(null, "a batch must not be empty") };
  }
  let valid: JSONRPCMessage[] | undefined;
  const rejected: JSONRPCErrorResponse[] = [];
  for (let index = 0; index < value.length; index++) {
    const element: unknown = value[index];
    const problem = findMessageProblem(element);
    if (problem === undefined) {
      valid?.push(element as JSONRPCMessage);
      continue;
    }
    // Copy lazily: a batch with no invalid element is returned as parsed.
    valid ??= value.slice(0, index) as JSONRPCMessage[];
    rejected.push(invalidRequest(readableId(element), `batch element ${index}: ${problem}`));
  }
  return { ok: true, frame: valid ?? (value as JSONRPCMessage[]), rejected };
}

function invalidRequest(id: JSONRPCId | null, problem: string): JSONRPCErrorResponse {
  return errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request", problem);
}

function errorResponse(
  id: JSONRPCId | null,
  code: number,
  message: string,
  data: string,
): JSONRPCErrorResponse {
  return { jsonrpc: "2.0", id, error: { code, message, data } };
}

/**
 * Hand-written envelope checks (no schema library: this runs on every message). Each returns
 * `undefined` for a valid JSON-RPC 2.0 message, or a sentence saying what is wrong.
 */
function findMessageProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "a message must be a JSON object";
  }
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return '"jsonrpc" must be exactly "2.0"';
  if ("method" in message) return findCallProblem(message);
  return findResponseProblem(message);
}

function findCallProblem(message: Record<string, unknown>): string | undefined {
  if (typeof message.method !== "string") return '"method" must be a string';
  if ("id" in message && !isId(message.id)) {
    return '"id" of a request must be a string or a finite number';
  }
  if ("params" in message) {
    const params = message.params;
    if (typeof params !== "object" || params === null) {
      return '"params" must be an object or an array when present';
    }
  }
  if ("result" in message || "error" in message) {
    return 'a message with "method" must not have "result" or "error"';
  }
  return undefined;
}

function findResponseProblem(message: Record<string, unknown>): string | undefined {
  const hasResult = "result" in message;
  const hasError = "error" in message;
  if (!hasResult && !hasError) return 'a message needs "method", "result" or "error"';
  if (hasResult && hasError) return 'a response must not have both "result" and "error"';
  if (!("id" in message)) return 'a response must have an "id"';
  // JSON-RPC 2.0 section 5: id null only in an error response whose request id was unreadable.
  if (message.id === null ? !hasError : !isId(message.id)) {
    return hasError
      ? '"id" of an error response must be a string, a finite number or null'
      : '"id" of a response must be a string or a finite number';
  }
  if (hasError) return findErrorObjectProblem(message.error);
  return undefined;
}

function findErrorObjectProblem(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || Array.isArray(error)) {
    return '"error" must be an object';
  }
  const { code, message } = error as Record<string, unknown>;
  if (typeof code !== "number" || !Number.isInteger(code)) {
    return '"error.code" must be an integer';
  }
  if (typeof message !== "string") return '"error.message" must be a string';
  return undefined;
}

/** True for a valid JSON-RPC id: a string or a finite number (`0` and `""` included). */
function isId(value: unknown): value is JSONRPCId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** The id of an invalid message when it can be read, else `null` (for the -32600 reply). */
function readableId(value: unknown): JSONRPCId | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>).id;
  return isId(id) ? id : null;
}

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
