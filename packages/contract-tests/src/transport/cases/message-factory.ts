import type {
  JSONRPCId,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCSuccessResponse,
} from "@patchbay/jsonrpc-core";

/** A notification the suite sends; the method name says which case sent it. */
export function notification(method: string, params?: JSONRPCNotification["params"]) {
  const message: JSONRPCNotification = { jsonrpc: "2.0", method: `contract/${method}` };
  if (params !== undefined) message.params = params;
  return message;
}

/** A request the suite sends. */
export function request(id: JSONRPCId, method: string, params?: JSONRPCRequest["params"]) {
  const message: JSONRPCRequest = { jsonrpc: "2.0", id, method: `contract/${method}` };
  if (params !== undefined) message.params = params;
  return message;
}

/** A success response echoing `result`. */
export function response(id: JSONRPCId, result: unknown): JSONRPCSuccessResponse {
  return { jsonrpc: "2.0", id, result };
}
