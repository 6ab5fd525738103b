import { ErrorCode, type JSONRPCErrorResponse } from "@patchbay/jsonrpc-core";

/**
 * The one -32600 answer to a batch of more than `maxBatchSize` entries: none of them runs, on every
 * entry where batches arrive (plain JSON-RPC, WebSocket).
 */
export function batchTooLarge(size: number, maxBatchSize: number): JSONRPCErrorResponse {
  return {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: ErrorCode.InvalidRequest,
      message: `a batch of ${size} requests exceeds the limit of ${maxBatchSize} (limits.maxBatchSize)`,
    },
  };
}
