import type { ServerResponse } from "node:http";
import type { JSONRPCErrorResponse } from "@patchbay/jsonrpc-core";
import type { GatewayCluster } from "./cluster.js";

/** JSON-RPC code of a call whose replica was lost before it answered. */
export const REPLICA_LOST_CODE = -32031;

/**
 * A client resuming a broken stream (GET with `Last-Event-ID`) may be waiting for calls that ran on
 * a replica that is gone. Takes those calls (once across the cluster) and answers them on this GET,
 * as an SSE stream of JSON-RPC errors that ends, so that no call waits forever. Returns false (and
 * leaves the request to the transport) when there are none.
 */
export async function answerOrphanedCalls(
  cluster: GatewayCluster,
  sessionId: string,
  response: ServerResponse,
): Promise<boolean> {
  const orphans = await cluster.calls.claimOrphaned(sessionId);
  if (orphans.length === 0) return false;
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "mcp-session-id": sessionId,
  });
  for (const call of orphans) {
    const answer: JSONRPCErrorResponse = {
      jsonrpc: "2.0",
      id: call.id,
      error: {
        code: REPLICA_LOST_CODE,
        message: `the proxy replica running this call (${call.replicaId}) stopped before it answered; the call may have run`,
        data: { replica: call.replicaId },
      },
    };
    response.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
  }
  response.end();
  return true;
}
