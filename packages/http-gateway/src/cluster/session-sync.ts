import type { FrameInfo, JSONRPCId, JSONRPCMessage, JSONRPCRequest } from "@patchbay/jsonrpc-core";
import type { GatewayCluster, SharedSessionRecord } from "./cluster.js";

const SYNC_LOGGING_ID = "~sync~logging";

/** What one replica keeps in step with the others for a shared session. */
export interface SessionSync {
  /** The session's record, once created here or adopted. */
  record: SharedSessionRecord | undefined;
  /**
   * A client message on its way in (`info`: its transport's facts, `extra.streamId` naming the SSE
   * stream that carries the answer): false when it must not reach this replica's router.
   */
  incoming(message: JSONRPCMessage, info?: FrameInfo): boolean;
  /** A response on its way to the client (saved first when it acknowledges a logging level). */
  answered(message: JSONRPCMessage): Promise<void>;
  /**
   * A response was handed to the client's stream (stored, when resumable): the call leaves the
   * cluster's list only now, so that a replica lost in between leaves it listed, never unanswered.
   */
  sent(message: JSONRPCMessage): void;
  /** A record another replica saved: a new logging level goes to this replica's router too. */
  applySaved(record: SharedSessionRecord): void;
  /** A broadcast client message: a cancellation of a call that runs here goes in. */
  applyBroadcast(message: JSONRPCMessage): void;
  /** Whether the client's request `id` is running on this replica. */
  isInFlight(id: unknown): boolean;
  /** Whether `id` is the answer to a request this module made (and must not reach the client). */
  ownsAnswer(message: JSONRPCMessage): boolean;
}

/**
 * Keeps a shared session in step across replicas: `logging/setLevel` is saved (and so published)
 * before the client hears it took effect, and every replica holding the session sets the same
 * level on its router session; `notifications/cancelled` for a call in flight on another replica
 * is broadcast, and only the replica running that call delivers it.
 */
export function createSessionSync(options: {
  readonly sessionId: string;
  readonly cluster: GatewayCluster;
  readonly ttlMs: number;
  readonly now: () => number;
  readonly adopted?: SharedSessionRecord | undefined;
  readonly warn: (what: string) => (error: unknown) => void;
  readonly emit: (message: JSONRPCMessage, info: FrameInfo) => void;
}): SessionSync {
  const { cluster, sessionId } = options;
  const inFlight = new Set<string>();
  const levelRequests = new Map<string, string>();
  let level = options.adopted?.loggingLevel;
  const keyOf = (id: unknown) => JSON.stringify(id);
  const info: FrameInfo = { extra: { sessionId } };
  /** A call answered or cancelled: no longer in flight here nor in the cluster's list. */
  const finish = (id: unknown): boolean => {
    if (!inFlight.delete(keyOf(id))) return false;
    cluster.calls.ended(sessionId, id as JSONRPCId);
    return true;
  };
  const sync: SessionSync = {
    record: options.adopted,
    incoming(message, frameInfo) {
      if (!("method" in message)) return true;
      const params = (message.params ?? {}) as Record<string, unknown>;
      if ("id" in message) {
        inFlight.add(keyOf(message.id));
        const streamId = frameInfo?.extra?.streamId;
        cluster.calls.started(
          sessionId,
          message.id,
          typeof streamId === "string" ? streamId : undefined,
        );
        if (message.method === "logging/setLevel") {
          levelRequests.set(keyOf(message.id), String(params.level));
        }
        return true;
      }
      if (message.method !== "notifications/cancelled") return true;
      // A cancelled call's later messages no longer belong on its (closed) stream.
      if (finish(params.requestId)) return true;
      const delivery = { sessionId, frame: message };
      cluster.bus.broadcast(delivery).catch(options.warn("broadcasting a cancellation"));
      return false;
    },
    async answered(message) {
      if ("method" in message) return;
      const key = keyOf(message.id);
      const asked = levelRequests.get(key);
      levelRequests.delete(key);
      if (asked === undefined || !("result" in message) || sync.record === undefined) return;
      level = asked;
      sync.record = { ...sync.record, loggingLevel: asked, lastActivityAt: options.now() };
      await cluster.sessions
        .save(sync.record, options.ttlMs)
        .catch(options.warn("saving its logging level"));
    },
    sent(message) {
      if (!("method" in message)) finish(message.id);
    },
    applySaved(saved) {
      if (saved.loggingLevel === undefined || saved.loggingLevel === level) return;
      level = saved.loggingLevel;
      if (sync.record !== undefined) sync.record = { ...sync.record, loggingLevel: level };
      const request: JSONRPCRequest = {
        jsonrpc: "2.0",
        id: SYNC_LOGGING_ID,
        method: "logging/setLevel",
        params: { level },
      };
      options.emit(request, info);
    },
    applyBroadcast(message) {
      if (!("method" in message) || message.method !== "notifications/cancelled") return;
      const params = (message.params ?? {}) as Record<string, unknown>;
      if (finish(params.requestId)) options.emit(message, info);
    },
    isInFlight: (id) => inFlight.has(keyOf(id)),
    ownsAnswer: (message) => !("method" in message) && message.id === SYNC_LOGGING_ID,
  };
  return sync;
}
