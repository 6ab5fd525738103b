import type { JSONRPCId } from "../messages.js";

/**
 * Hand-written envelope checks (no schema library: this runs on every message). Each returns
 * `undefined` for a valid JSON-RPC 2.0 message, or a sentence saying what is wrong.
 */
export function findMessageProblem(value: unknown): string | undefined {
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
export function isId(value: unknown): value is JSONRPCId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** The id of an invalid message when it can be read, else `null` (for the -32600 reply). */
export function readableId(value: unknown): JSONRPCId | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>).id;
  return isId(id) ? id : null;
}
