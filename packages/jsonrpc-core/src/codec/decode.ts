import { ErrorCode } from "../errors/error-code.js";
import type { Frame, JSONRPCErrorResponse, JSONRPCId, JSONRPCMessage } from "../messages.js";
import { findMessageProblem, readableId } from "./check-message.js";

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
