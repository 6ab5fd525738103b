import { parseOrUndefined, skipWhitespace } from "../codec/json-text.js";
import type { JSONRPCId } from "../messages.js";

/** What the ends of a dropped line say about the message it held. */
export interface EnvelopeHint {
  /** The message's id, when one was found before any nested value, or as the line's last member. */
  id?: JSONRPCId;
  /** `request` when `method` came before any nested value, `response` for `result` or `error`. */
  messageType?: "request" | "response";
}

/**
 * Recovers the id and kind of a JSON-RPC message from the first and last bytes of its text without
 * parsing the rest. Encoders put the envelope first (`{"jsonrpc":"2.0","id":1,"result":...}`, as
 * this package does) or last (`{"result":...,"jsonrpc":"2.0","id":1}`, as the official SDK does);
 * both are read. Returns no id when neither end shows one.
 */
export function sniffEnvelope(head: string, tail: string): EnvelopeHint {
  const hint = scanHead(head);
  if (hint.id === undefined) {
    const id = scanTail(tail);
    if (id !== undefined) hint.id = id;
  }
  return hint;
}

/** Reads top-level members from the start while their values are primitives. */
function scanHead(text: string): EnvelopeHint {
  const hint: EnvelopeHint = {};
  let index = skipWhitespace(text, 0);
  if (text[index] !== "{") return hint;
  index += 1;
  for (;;) {
    const key = readString(text, skipWhitespace(text, index));
    if (key === undefined) return hint;
    index = skipWhitespace(text, key.end);
    if (text[index] !== ":") return hint;
    index = skipWhitespace(text, index + 1);
    if (key.value === "method") hint.messageType ??= "request";
    if (key.value === "result" || key.value === "error") hint.messageType ??= "response";
    const value = readPrimitive(text, index);
    if (value === undefined) return hint;
    if (
      key.value === "id" &&
      (typeof value.value === "string" || typeof value.value === "number")
    ) {
      hint.id ??= value.value;
    }
    index = skipWhitespace(text, value.end);
    if (text[index] !== ",") return hint;
    index += 1;
  }
}

// The last member of the top-level object, optionally followed by the jsonrpc member.
const TAIL_ID =
  /"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/;

function scanTail(text: string): JSONRPCId | undefined {
  const match = TAIL_ID.exec(text);
  if (match === null) return undefined;
  const value = parseOrUndefined(match[1] as string);
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** A string, number or literal that ends before the text does (a cut-off token is not trusted). */
function readPrimitive(text: string, start: number): { value: unknown; end: number } | undefined {
  if (text[start] === '"') return readString(text, start);
  for (const pattern of [NUMBER, LITERAL]) {
    pattern.lastIndex = start;
    const match = pattern.exec(text);
    if (match !== null && pattern.lastIndex < text.length) {
      return { value: parseOrUndefined(match[0]), end: pattern.lastIndex };
    }
  }
  return undefined;
}

function readString(text: string, start: number): { value: string; end: number } | undefined {
  if (text[start] !== '"') return undefined;
  for (let index = start + 1; index < text.length; index += 1) {
    const character = text[index];
    if (character === "\\") index += 1;
    else if (character === '"') {
      const value = parseOrUndefined(text.slice(start, index + 1));
      return typeof value === "string" ? { value, end: index + 1 } : undefined;
    }
  }
  return undefined;
}
