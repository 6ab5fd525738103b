import type { Frame, JSONRPCId, JSONRPCMessage } from "@patchbay/jsonrpc-core";

/** A map key for a request id that keeps `1` and `"1"` apart (and `0`, `""` as real ids). */
export function idKey(id: JSONRPCId): string {
  return `${typeof id}:${id}`;
}

/** The messages of a frame, in order. */
export function messagesOf(frame: Frame): readonly JSONRPCMessage[] {
  return Array.isArray(frame) ? frame : [frame as JSONRPCMessage];
}

/** True for an `initialize` request. */
export function isInitializeRequest(message: JSONRPCMessage): boolean {
  return "method" in message && message.method === "initialize" && "id" in message;
}

/** The `_meta.progressToken` of a request, when it asks for progress. */
export function progressTokenOf(message: JSONRPCMessage): string | number | undefined {
  if (!("method" in message) || message.params === undefined || Array.isArray(message.params)) {
    return undefined;
  }
  const meta = (message.params as { _meta?: { progressToken?: unknown } })._meta;
  const token = meta?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/** The `protocolVersion` an `initialize` request asks for. */
export function requestedVersion(initialize: JSONRPCMessage | undefined): string | undefined {
  if (initialize === undefined || !("params" in initialize)) return undefined;
  const version = (initialize.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof version === "string" ? version : undefined;
}
