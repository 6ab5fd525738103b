import type { ServerResponse } from "node:http";
import type { Frame, JSONRPCErrorResponse } from "@patchbay/jsonrpc-core";
import { PatchbayErrorCode } from "@patchbay/mcp-types";
import { formatSseEvent } from "@patchbay/transport-http";
import type { ClusterCall, GatewayCluster } from "./cluster.js";

/** JSON-RPC code of a call whose replica was lost before it answered (`ReplicaLost`). */
export const REPLICA_LOST_CODE = PatchbayErrorCode.ReplicaLost;

/**
 * A client resuming a broken POST stream (GET with `Last-Event-ID`) whose replica is gone: takes
 * the calls whose answer was due on that stream (once across the cluster) and answers the stream
 * here: the events stored after `Last-Event-ID` first, with their ids (an answer already stored
 * counts as given), then a JSON-RPC error for each call still unanswered, then the end. Returns
 * false (and leaves the request to the transport) when that stream has no such call: the GET
 * stream, another session's stream, a stream whose replica still runs.
 */
export async function answerOrphanedCalls(
  cluster: GatewayCluster,
  sessionId: string,
  lastEventId: string,
  response: ServerResponse,
): Promise<boolean> {
  const orphans = await cluster.calls.claimOrphaned(sessionId, lastEventId);
  if (orphans.length === 0) return false;
  const replay: [string, Frame][] = [];
  // The claim proved the stream is this session's; its events are replayed as a transport would.
  const replayed = await cluster.eventStore
    .replayEventsAfter(lastEventId, (eventId, frame) => {
      replay.push([eventId, frame]);
    })
    .catch(() => undefined);
  const stream = orphans[0]?.streamId;
  const events = replayed === stream ? replay : [];
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
    "mcp-session-id": sessionId,
  });
  const answered = new Set<string>();
  for (const [eventId, frame] of events) {
    for (const message of Array.isArray(frame) ? frame : [frame]) {
      if (!("method" in message)) answered.add(JSON.stringify(message.id));
    }
    response.write(formatSseEvent({ id: eventId, event: "message", data: JSON.stringify(frame) }));
  }
  for (const call of orphans) {
    if (answered.has(JSON.stringify(call.id))) continue;
    response.write(
      formatSseEvent({ event: "message", data: JSON.stringify(replicaLostAnswer(call)) }),
    );
  }
  response.end();
  return true;
}

/** The error that answers a call lost with its replica. */
function replicaLostAnswer(call: ClusterCall): JSONRPCErrorResponse {
  return {
    jsonrpc: "2.0",
    id: call.id,
    error: {
      code: REPLICA_LOST_CODE,
      message: `the proxy replica running this call (${call.replicaId}) stopped before it answered; the call may have run`,
      data: { replica: call.replicaId },
    },
  };
}
