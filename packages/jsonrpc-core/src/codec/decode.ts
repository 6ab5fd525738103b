import { ErrorCode } from "../errors/error-code.js";
import type { Frame, JSONRPCErrorResponse, JSONRPCId, JSONRPCMessage } from "../messages.js";

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
