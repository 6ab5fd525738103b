import type { IncomingMessage } from "node:http";
import type { Frame, Transport } from "@patchbay/jsonrpc-core";
import type { StreamableHttpHandler } from "@patchbay/transport-http";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { GatewayCluster, SharedSessionRecord } from "./cluster.js";
import { type SharedSessionTransport, shareSession } from "./shared-session-transport.js";

/** How {@link ClusterSessions.adopt} ended. */
export type AdoptionOutcome = "here" | "adopted" | "unknown" | "unavailable";

/** The gateway's side of sessions shared between replicas. */
export interface ClusterSessions {
  /** Wraps a new or adopted Streamable HTTP session's transport (see `shareSession`). */
  wrap(
    transport: Transport,
    sessionId: string,
    owner: TokenIdentity,
    profile: string | undefined,
    hasStandaloneStream: () => boolean,
  ): Transport;
  /**
   * Opens here a session another replica created, when the shared store has it for this token and
   * profile: `here` (already open), `adopted`, `unknown` (the transport then answers 404) or
   * `unavailable` (the store cannot be reached).
   */
  adopt(
    handler: StreamableHttpHandler,
    sessionId: string,
    identity: TokenIdentity,
    profile: string | undefined,
    request: IncomingMessage,
  ): Promise<AdoptionOutcome>;
  /**
   * A GET of `sessionId` was served here: when it left the session's GET stream open here, this
   * replica holds it now, and the messages kept for it while no replica held it go out on it.
   */
  heldGetStream(sessionId: string | undefined): Promise<void>;
  /** Sessions adopted from the store since start. */
  readonly adoptedCount: number;
  /** Stops listening to the cluster. */
  close(): void;
}

/** Creates the shared-session glue of one gateway. */
export function createClusterSessions(options: {
  readonly cluster: GatewayCluster;
  readonly ttlMs: number;
  readonly now: () => number;
  readonly onWarning: (message: string) => void;
}): ClusterSessions {
  const { cluster } = options;
  const local = new Map<string, SharedSessionTransport>();
  const adopting = new Map<string, SharedSessionRecord>();
  const pending = new Map<string, Promise<AdoptionOutcome>>();
  let adoptedCount = 0;
  const offRemoved = cluster.sessions.onRemoved((sessionId) => {
    void local.get(sessionId)?.close();
  });
  const offDelivery = cluster.bus.onDelivery(({ sessionId, frame, toClient }) => {
    if (toClient === true) toGetStream(sessionId, frame);
    else local.get(sessionId)?.deliverRemote(frame);
  });
  /** A message for the GET stream: out on it when open here, else on to its holder or kept. */
  function toGetStream(sessionId: string, frame: Frame): void {
    if (local.get(sessionId)?.toGetStream(frame) === true) return;
    cluster.getStreams.send(sessionId, frame).catch((error: unknown) => {
      options.onWarning(
        `session ${sessionId}: keeping a message for the GET stream: ${String(error)}`,
      );
    });
  }
  const offBroadcast = cluster.bus.onBroadcast(({ sessionId, frame, toClient }) => {
    local.get(sessionId)?.applyBroadcast(frame, toClient === true);
  });
  const offSaved = cluster.sessions.onSaved((record) => {
    local.get(record.sessionId)?.applySaved(record);
  });
  const offSubscription = cluster.sessions.onSubscription(({ sessionId, uri, subscribed }) => {
    local.get(sessionId)?.applySubscription(uri, subscribed);
  });
  // Redis may come back empty (no persistence): the sessions held here are saved again.
  const offAvailable = cluster.onAvailable(() => {
    for (const [sessionId, shared] of local) {
      shared.resave().catch((error: unknown) => {
        options.onWarning(`cannot save session ${sessionId} again: ${String(error)}`);
      });
    }
  });

  async function load(
    handler: StreamableHttpHandler,
    sessionId: string,
    identity: TokenIdentity,
    profile: string,
    request: IncomingMessage,
  ): Promise<AdoptionOutcome> {
    let record: SharedSessionRecord | undefined;
    try {
      record = await cluster.sessions.load(sessionId);
    } catch (error) {
      options.onWarning(
        `cannot look up session ${sessionId} in the shared store: ${String(error)}`,
      );
      return "unavailable";
    }
    // Another token's session, or another profile's, does not exist for this request.
    if (record === undefined || record.owner !== identity.name || record.profile !== profile) {
      return "unknown";
    }
    adopting.set(sessionId, record);
    try {
      await handler.adoptSession(sessionId, {
        protocolVersion: record.protocolVersion,
        request,
        authInfo: identity,
      });
    } finally {
      adopting.delete(sessionId);
    }
    adoptedCount += 1;
    return "adopted";
  }

  return {
    wrap(transport, sessionId, owner, profile, hasStandaloneStream) {
      const shared = shareSession(transport, {
        hasStandaloneStream,
        sessionId,
        owner: owner.name,
        profile: profile ?? "",
        cluster,
        ttlMs: options.ttlMs,
        now: options.now,
        adopted: adopting.get(sessionId),
        onWarning: options.onWarning,
      });
      local.set(sessionId, shared);
      transport.onClose(() => {
        if (local.get(sessionId) === shared) local.delete(sessionId);
      });
      return shared;
    },
    async adopt(handler, sessionId, identity, profile, request) {
      if (handler.getSession(sessionId) !== undefined) return "here";
      let outcome = pending.get(sessionId);
      if (outcome === undefined) {
        outcome = load(handler, sessionId, identity, profile ?? "", request);
        pending.set(sessionId, outcome);
        void outcome.finally(() => pending.delete(sessionId));
      }
      return outcome;
    },
    async heldGetStream(sessionId) {
      if (sessionId === undefined || local.get(sessionId)?.hasGetStream() !== true) return;
      try {
        const kept = await cluster.getStreams.hold(sessionId);
        for (const frame of kept) toGetStream(sessionId, frame);
      } catch (error) {
        options.onWarning(`session ${sessionId}: taking the GET stream: ${String(error)}`);
      }
    },
    get adoptedCount() {
      return adoptedCount;
    },
    close() {
      const offs = [offRemoved, offDelivery, offBroadcast, offSaved, offSubscription, offAvailable];
      for (const off of offs) off();
    },
  };
}
