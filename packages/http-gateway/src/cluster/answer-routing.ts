import type { JSONRPCId, JSONRPCMessage, JSONRPCRequest } from "@patchbay/jsonrpc-core";
import type { ClusterBus } from "./cluster.js";

/** Server-to-client requests remembered per session while their answers are awaited. */
const MAX_OUTGOING_REQUESTS = 1000;

/** Routes a shared session's server-to-client requests and the client's answers between replicas. */
export interface AnswerRouting {
  /** Gives an outgoing request an id that names this replica. */
  outgoing(request: JSONRPCRequest): JSONRPCRequest;
  /**
   * A client's message: returned (answers to this replica's requests with their original id), or
   * sent over the bus to the replica whose id its answer carries (then `undefined`).
   */
  incoming(message: JSONRPCMessage): JSONRPCMessage | undefined;
}

/**
 * Ids `~<replicaId>~<n>` on the way out; on the way in, an answer whose id names another replica
 * goes to it over the bus, so that sampling asked on replica A may be answered through replica B.
 */
export function createAnswerRouting(options: {
  readonly replicaId: string;
  readonly sessionId: string;
  readonly bus: ClusterBus;
  readonly onWarning: (error: unknown) => void;
}): AnswerRouting {
  const prefix = `~${options.replicaId}~`;
  const originals = new Map<string, JSONRPCId>();
  let counter = 0;
  return {
    outgoing(request) {
      counter += 1;
      const id = `${prefix}${counter}`;
      originals.set(id, request.id);
      if (originals.size > MAX_OUTGOING_REQUESTS) {
        originals.delete(originals.keys().next().value as string);
      }
      return { ...request, id };
    },
    incoming(message) {
      if ("method" in message || typeof message.id !== "string" || !message.id.startsWith("~")) {
        return message;
      }
      const end = message.id.indexOf("~", 1);
      const replicaId = message.id.slice(1, end);
      if (end > 0 && replicaId !== options.replicaId) {
        const delivery = { sessionId: options.sessionId, frame: message };
        options.bus.send(replicaId, delivery).catch(options.onWarning);
        return undefined;
      }
      const original = originals.get(message.id);
      if (original === undefined) return message;
      originals.delete(message.id);
      return { ...message, id: original };
    },
  };
}
