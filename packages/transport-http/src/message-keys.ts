import type { JSONRPCId } from "@patchbay/jsonrpc-core";

/** A map key for a request id that keeps `1` and `"1"` apart (and `0`, `""` as real ids). */
export function idKey(id: JSONRPCId): string {
  return `${typeof id}:${id}`;
}
