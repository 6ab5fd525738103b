import { type DecodeResult, decode, decodeValue, keepResultText } from "./codec.js";
import { lastNonWhitespace, parseOrUndefined, skipWhitespace } from "./json-text.js";

/** Characters searched for the members around `result`, at each end of the text. */
const ENVELOPE_WINDOW = 1024;
const RESULT_KEY = '"result"';

/**
 * Like {@link decode}, and when the text is one success response, also keeps the text of its
 * `result` (see `keepResultText`) so that encoding that result again writes the text as it came.
 *
 * The text is cut in three: the members before `"result":` (the head), the result's text, and the
 * members after it (the tail), and each piece is parsed on its own. When all three parse, the text is
 * exactly `{head members, "result": value, tail members}` (a valid JSON text has one parse), so the
 * frame is the one `decode` gives, and the result's text is known to be its whole value; the large
 * piece is parsed once, as `decode` would. Any text this cannot cut (other member orders, a head or
 * tail longer than 1 KiB, invalid JSON) goes to `decode` as it is.
 */
export function decodeKeepingResult(text: string, bytes?: LineBytes): DecodeResult {
  const head = readHead(text);
  if (head === undefined) return decode(text);
  // A response names "jsonrpc" and "id": when the head has both, nothing is likely to follow.
  const envelopeFirst = "jsonrpc" in head.members && "id" in head.members;
  const parts =
    (envelopeFirst ? cutBeforeClosingBrace(text, head.valueStart) : undefined) ??
    cutBeforeTailMembers(text, head.valueStart) ??
    (envelopeFirst ? undefined : cutBeforeClosingBrace(text, head.valueStart));
  if (parts === undefined) return decode(text);
  // Spreads define own properties, as JSON.parse does (a "__proto__" member stays a member).
  const decoded = decodeValue({ ...head.members, result: parts.result, ...parts.tail });
  const resultText = text.slice(head.valueStart, parts.end);
  // A line break inside the kept text would end a line (or an SSE field) when it is written again.
  if (decoded.ok && resultText.indexOf("\n") === -1 && resultText.indexOf("\r") === -1) {
    const span = bytes && byteSpan(text, bytes, head.valueStart, parts.end);
    keepResultText(parts.result, resultText, span);
  }
  return decoded;
}

/** The UTF-8 bytes of a line of text, in the pieces it arrived in (see `createLineSplitter`). */
export interface LineBytes {
  readonly chunks: readonly Uint8Array[];
  /** The line's length in bytes without its line ending (a last `\r` in `chunks` is not part of it). */
  readonly length: number;
}

/**
 * The bytes of `text.slice(start, end)` within the line's bytes, as views of its chunks. Only when
 * the text holds no U+FFFD: then the bytes were valid UTF-8 (the decoder replaces anything else by
 * it), so characters and bytes correspond one to one, after a byte order mark the decoder dropped.
 */
function byteSpan(
  text: string,
  bytes: LineBytes,
  start: number,
  end: number,
): Uint8Array[] | undefined {
  if (text.indexOf("\ufffd") !== -1) return undefined;
  const encoder = new TextEncoder();
  const mark = byteAt(bytes, 0) === 0xef && byteAt(bytes, 1) === 0xbb && byteAt(bytes, 2) === 0xbf;
  const from = (mark ? 3 : 0) + encoder.encode(text.slice(0, start)).length;
  const to = bytes.length - encoder.encode(text.slice(end)).length;
  if (to < from) return undefined;
  const span: Uint8Array[] = [];
  let offset = 0;
  for (const chunk of bytes.chunks) {
    const first = Math.max(from - offset, 0);
    const last = Math.min(to - offset, chunk.length);
    if (first < last)
      span.push(first === 0 && last === chunk.length ? chunk : chunk.subarray(first, last));
    offset += chunk.length;
    if (offset >= to) break;
  }
  return span;
}

function byteAt(bytes: LineBytes, index: number): number | undefined {
  let offset = index;
  for (const chunk of bytes.chunks) {
    if (offset < chunk.length) return chunk[offset];
    offset -= chunk.length;
  }
  return undefined;
}

interface Head {
  /** The members before "result" (none for `{"result":`). */
  readonly members: Record<string, unknown>;
  /** Where the result's value starts. */
  readonly valueStart: number;
}

/** The members before a top-level `"result"` key, parsed, and where its value starts. */
function readHead(text: string): Head | undefined {
  const key = text.slice(0, ENVELOPE_WINDOW).indexOf(RESULT_KEY);
  if (key === -1) return undefined;
  const before = text.slice(skipWhitespace(text, 0), lastNonWhitespace(text, key) + 1);
  let members: unknown;
  if (before === "{") {
    members = {};
  } else if (before.startsWith("{") && before.endsWith(",")) {
    // `{"jsonrpc":"2.0","id":1,` closed by "}" parses only if the key stands at the top level;
    // an empty object means the comma followed the brace, `{,"result":`, which is no JSON.
    members = parseOrUndefined(`${before.slice(0, -1)}}`);
    if (isPlainObject(members) && Object.keys(members).length === 0) return undefined;
  }
  if (!isPlainObject(members) || "result" in members) return undefined;
  let at = skipWhitespace(text, key + RESULT_KEY.length);
  if (text[at] !== ":") return undefined;
  at = skipWhitespace(text, at + 1);
  return { members, valueStart: at };
}

interface Cut {
  readonly result: unknown;
  /** Where the result's text ends. */
  readonly end: number;
  /** The members after "result". */
  readonly tail: Record<string, unknown>;
}

/** `{...,"result": R }`: the result runs to the closing brace. */
function cutBeforeClosingBrace(text: string, start: number): Cut | undefined {
  const end = lastNonWhitespace(text, text.length);
  if (end <= start || text[end] !== "}") return undefined;
  const result = parseOrUndefined(text.slice(start, end));
  return result === undefined ? undefined : { result, end, tail: {} };
}

/**
 * `{"result": R, "jsonrpc":"2.0","id":1}`: the members after the result, cut at the first comma
 * (within the last 1 KiB) after which the rest reads as the members of an object. A comma inside
 * the result does not: what follows it closes a bracket of the result, or sits in one of its strings.
 */
function cutBeforeTailMembers(text: string, start: number): Cut | undefined {
  for (
    let comma = text.indexOf(",", Math.max(start, text.length - ENVELOPE_WINDOW));
    comma !== -1;
    comma = text.indexOf(",", comma + 1)
  ) {
    const tail = parseOrUndefined(`{${text.slice(comma + 1)}`);
    // No members after the comma (`,}`) is no JSON either.
    if (!isPlainObject(tail) || "result" in tail || Object.keys(tail).length === 0) continue;
    const result = parseOrUndefined(text.slice(start, comma));
    // Should a result ever fail to parse here, the caller falls back to decoding the whole text.
    return result === undefined ? undefined : { result, end: comma, tail };
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
