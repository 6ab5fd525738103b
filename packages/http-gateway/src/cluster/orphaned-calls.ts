import type { ServerResponse } from "node:http";
import { type Frame, type JSONRPCErrorResponse, messagesOf } from "@patchbay/jsonrpc-core";
import { PatchbayErrorCode } from "@patchbay/mcp-types";
import { formatSseEvent } from "@patchbay/transport-http";
import type { ClusterCall, GatewayCluster } from "./cluster.js";

/** JSON-RPC code of a call whose replica was lost before it answered (`ReplicaLost`). */
export const REPLICA_LOST_CODE = PatchbayErrorCode.ReplicaLost;

/**
 * A client resuming a broken POST stream (GET with `Last-Event-ID`) whose replica is gone: takes
 * the calls whose answer was due on that stream (once across the cluster) and answers the stream
 * here: the events stored after `Last-Event-ID` first, with their ids (an answer already stored
 * counts as given), then a JSON-RPC error for each call still unanswered (stored on the stream, so
 * that a client resuming again after it does not get it twice), then the end. A stream whose lost
 * calls were answered already (by the replica that noticed the loss, or an earlier resume) is
 * replayed and ended the same way. Returns false (and leaves the request to the transport) when
 * that stream has no such call: the GET stream, another session's stream, a stream whose replica
 * still runs.
 */
export async function answerOrphanedCalls(
  cluster: GatewayCluster,
  sessionId: string,
  lastEventId: string,
  response: ServerResponse,
): Promise<boolean> {
  const orphans = await cluster.calls.claimOrphaned(sessionId, lastEventId);
  if (orphans.length === 0 && !(await cluster.calls.failedOver?.(sessionId, lastEventId))) {
    return false;
  }
  // The claim (or the mark) proved the stream is this session's; replayed as a transport would.
  const events = await replayStream(cluster, lastEventId, orphans[0]?.streamId);
  const answered = new Set(events.flatMap(([, frame]) => answeredIds(frame)));
  for (const call of orphans) {
    if (answered.has(JSON.stringify(call.id))) continue;
    events.push(await storeLostAnswer(cluster, sessionId, call));
  }
  const stream = orphans[0]?.streamId;
  if (stream !== undefined && cluster.calls.markFailedOver !== undefined) {
    await cluster.calls.markFailedOver(sessionId, stream).catch(() => undefined);
  }
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
    "mcp-session-id": sessionId,
  });
  const written = new Set<string>();
  for (const [eventId, frame] of events) {
    // A call answered on its stream just before its replica was lost, and failed over too, is
    // answered once: its own answer.
    if (isReplicaLost(frame) && written.has(JSON.stringify(frame.id))) continue;
    for (const id of answeredIds(frame)) written.add(id);
    const data = JSON.stringify(frame);
    response.write(
      formatSseEvent({ ...(eventId === undefined ? {} : { id: eventId }), event: "message", data }),
    );
  }
  response.end();
  return true;
}

/** The events stored on the stream after `lastEventId` (none when it is not `expected`). */
async function replayStream(
  cluster: GatewayCluster,
  lastEventId: string,
  expected: string | undefined,
): Promise<[string | undefined, Frame][]> {
  const replay: [string | undefined, Frame][] = [];
  const replayed = await cluster.eventStore
    .replayEventsAfter(lastEventId, (eventId, frame) => {
      replay.push([eventId, frame]);
    })
    .catch(() => undefined);
  return expected === undefined || replayed === expected ? replay : [];
}

/** Stores the error answering a lost call on its stream: its event (no id when it was not stored). */
async function storeLostAnswer(
  cluster: GatewayCluster,
  sessionId: string,
  call: ClusterCall,
): Promise<[string | undefined, Frame]> {
  const answer = replicaLostAnswer(call);
  const eventId = await Promise.resolve()
    .then(() => cluster.eventStore.storeEvent(call.streamId, answer, sessionId))
    .catch(() => undefined);
  return [eventId, answer];
}

/** The request ids `frame` answers, as JSON. */
function answeredIds(frame: Frame): string[] {
  return messagesOf(frame).flatMap((message) =>
    "method" in message ? [] : [JSON.stringify(message.id)],
  );
}

function isReplicaLost(frame: Frame): frame is JSONRPCErrorResponse {
  return !Array.isArray(frame) && "error" in frame && frame.error.code === REPLICA_LOST_CODE;
}

/** The error that answers a call lost with its replica. */
export function replicaLostAnswer(
  call: Pick<ClusterCall, "id" | "replicaId">,
): JSONRPCErrorResponse {
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
