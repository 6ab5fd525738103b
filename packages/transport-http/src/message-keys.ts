import type { JSONRPCId, JSONRPCMessage } from "@patchbay/jsonrpc-core";

/** A map key for a request id that keeps `1` and `"1"` apart (and `0`, `""` as real ids). */
export function idKey(id: JSONRPCId): string {
  return `${typeof id}:${id}`;
}

/** True for an `initialize` request (which opens a session, and must come alone). */
export function isInitializeRequest(message: JSONRPCMessage): boolean {
  return "method" in message && message.method === "initialize" && "id" in message;
}
