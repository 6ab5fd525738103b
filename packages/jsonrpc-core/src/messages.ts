/** A JSON-RPC request id. `0` and `""` are ids like any other: never test an id for truthiness. */
export type JSONRPCId = string | number;

/** Parameters of a request or notification: by name (object) or by position (array). */
export type JSONRPCParams = { readonly [key: string]: unknown } | readonly unknown[];

/** A request: expects exactly one response with the same id. */
export interface JSONRPCRequest {
  jsonrpc: "2.0";
  id: JSONRPCId;
  method: string;
  params?: JSONRPCParams;
}

/** A notification: a request without an id, never answered. */
export interface JSONRPCNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JSONRPCParams;
}

/** The `error` member of an error response. */
export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A successful response. */
export interface JSONRPCSuccessResponse {
  jsonrpc: "2.0";
  id: JSONRPCId;
  result: unknown;
}

/**
 * An error response. `id` is `null` only when the id of the request it answers could not be read
 * (JSON-RPC 2.0 section 5).
 */
export interface JSONRPCErrorResponse {
  jsonrpc: "2.0";
  id: JSONRPCId | null;
  error: JSONRPCErrorObject;
}

/** Either kind of response. */
export type JSONRPCResponse = JSONRPCSuccessResponse | JSONRPCErrorResponse;

/** Any single JSON-RPC 2.0 message. */
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

/** A batch: an array of messages sent as one unit (JSON-RPC 2.0 section 6). */
export type JSONRPCBatch = readonly JSONRPCMessage[];

/** What a transport moves in one piece: one message or a batch. */
export type Frame = JSONRPCMessage | JSONRPCBatch;

/** True for a request (has a method and an id). */
export function isJSONRPCRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

/** True for a notification (has a method, no id). */
export function isJSONRPCNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return "method" in message && !("id" in message);
}

/** True for a success response. */
export function isJSONRPCSuccessResponse(
  message: JSONRPCMessage,
): message is JSONRPCSuccessResponse {
  return "result" in message && !("method" in message);
}

/** True for an error response. */
export function isJSONRPCErrorResponse(message: JSONRPCMessage): message is JSONRPCErrorResponse {
  return "error" in message && !("method" in message);
}

/** True for either kind of response. */
export function isJSONRPCResponse(message: JSONRPCMessage): message is JSONRPCResponse {
  return !("method" in message);
}

/**
 * True when the frame is a batch: `Array.isArray` itself, so that asking, once or more per frame on
 * every layer, runs no function of ours.
 */
export const isBatch = Array.isArray as (frame: Frame) => frame is JSONRPCBatch;

/** The messages of a frame, in order: a batch's own array, or a one-message array. */
export function messagesOf(frame: Frame): readonly JSONRPCMessage[] {
  return isBatch(frame) ? frame : [frame];
}
