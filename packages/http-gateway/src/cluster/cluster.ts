import type {
  Frame,
  FrameInfo,
  JSONRPCId,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  Unsubscribe,
} from "@patchbay/jsonrpc-core";
import type { EventStore } from "@patchbay/transport-http";
import type { RateLimiterOptions, SharedRateLimiter } from "../admission/admission.js";

/** What a replica stores about a Streamable HTTP session so that any replica can serve it. */
export interface SharedSessionRecord {
  readonly sessionId: string;
  /** The token name that created the session; other tokens get 404. */
  readonly owner: string;
  /** The profile it was opened on; `""` for the default endpoint. */
  readonly profile: string;
  /** The revision negotiated at `initialize`. */
  readonly protocolVersion: string;
  /** The client's `initialize` params: the revision it asked for, `clientInfo`, `capabilities`. */
  readonly initializeParams: Readonly<Record<string, unknown>>;
  /** The level of the client's last `logging/setLevel`, when it sent one. */
  readonly loggingLevel?: string | undefined;
  /**
   * The resource URIs the client subscribed to (`resources/subscribe`), so that every replica
   * holding the session subscribes its own backends; at most 100. `load` gives them; `save` does
   * not store them (see `SharedSessionStore.setSubscription`).
   */
  readonly resourceSubscriptions?: readonly string[] | undefined;
  /** When a replica last saw a request of this session (ms since the epoch). */
  readonly lastActivityAt: number;
}

/** The session records every replica shares; each expires after the session idle TTL. */
export interface SharedSessionStore {
  /** Stores (or replaces) a record that expires `ttlMs` after now. */
  save(record: SharedSessionRecord, ttlMs: number): Promise<void>;
  /** The record of `sessionId`, or `undefined` when none (expired, deleted, never created). */
  load(sessionId: string): Promise<SharedSessionRecord | undefined>;
  /** Records activity at `at` and pushes the expiry `ttlMs` ahead. */
  touch(sessionId: string, at: number, ttlMs: number): Promise<void>;
  /** Deletes the record and tells every replica (see `onRemoved`). */
  remove(sessionId: string): Promise<void>;
  /** Hears every session removed by any replica, this one included. */
  onRemoved(listener: (sessionId: string) => void): Unsubscribe;
  /** Hears every record saved by any replica, this one included (a changed logging level, say). */
  onSaved(listener: (record: SharedSessionRecord) => void): Unsubscribe;
  /**
   * Adds `uri` to the record's resource subscriptions (or removes it), each URI on its own so that
   * replicas changing different URIs at once lose none, and tells every replica (`onSubscription`).
   * Does nothing when the record is gone.
   */
  setSubscription(sessionId: string, uri: string, subscribed: boolean): Promise<void>;
  /** Hears every subscription change made by any replica, this one included. */
  onSubscription(listener: (change: SubscriptionChange) => void): Unsubscribe;
}

/** A session's resource subscription added or removed (see `SharedSessionStore.setSubscription`). */
export interface SubscriptionChange {
  readonly sessionId: string;
  readonly uri: string;
  readonly subscribed: boolean;
}

/**
 * A message of a shared session between replicas: a client's answer on its way to the replica that
 * asked, a client's cancellation, or a server message for the replica that holds the GET stream.
 */
export interface ClusterDelivery {
  readonly sessionId: string;
  readonly frame: Frame;
  /** A server message for the replica holding the session's GET stream (else: from the client). */
  readonly toClient?: boolean;
}

/** Carries messages between replicas. */
export interface ClusterBus {
  /** Sends `delivery` to replica `replicaId`; resolves once handed to the bus. */
  send(replicaId: string, delivery: ClusterDelivery): Promise<void>;
  /** Hears the deliveries sent to this replica. */
  onDelivery(listener: (delivery: ClusterDelivery) => void): Unsubscribe;
  /** Sends `delivery` to every replica (this one included). */
  broadcast(delivery: ClusterDelivery): Promise<void>;
  /** Hears every broadcast delivery. */
  onBroadcast(listener: (delivery: ClusterDelivery) => void): Unsubscribe;
}

/** A client call in flight on a replica, as the cluster lists it. */
export interface ClusterCall {
  readonly id: JSONRPCId;
  /** The replica that ran it. */
  readonly replicaId: string;
  /** The SSE stream (event-store stream id) that was to carry its answer. */
  readonly streamId: string;
}

/** The calls in flight per session and replica, so that the calls of a lost replica get an answer. */
export interface ClusterCalls {
  /**
   * A client request of `sessionId` is running on this replica, its answer due on the SSE stream
   * `streamId` (absent: a plain JSON answer, or not known). Fire and forget.
   */
  started(sessionId: string, id: JSONRPCId, streamId?: string): void;
  /** It was answered (fire and forget). */
  ended(sessionId: string, id: JSONRPCId): void;
  /**
   * A client resumes a stream of `sessionId` with `lastEventId`: takes, once across the cluster, the
   * calls of that session whose answer was due on that stream and that were running on a replica
   * that is gone (its bus subscription closed): each is returned to one caller only. Calls of a gone
   * replica whose stream is unknown are taken off the list without being returned (no stream a
   * client reads carries them). An event id of another session's stream takes nothing.
   */
  claimOrphaned(sessionId: string, lastEventId: string): Promise<readonly ClusterCall[]>;
  /**
   * Replica `replicaId` is gone (its heartbeat says so): takes, once across the cluster, every call
   * it had listed that no client's resume took yet, each returned to one caller only. A call whose
   * answer was due on an SSE stream gets `answerOf(call)` stored on that stream in the same step
   * (and the stream marked, see `failedOver`), so that a client resuming it on any replica, before
   * or after, gets either that answer or its own claim. Absent: a lost replica's calls are answered
   * only when their client resumes a stream.
   */
  failOver?(
    replicaId: string,
    answerOf: (call: LostCall) => JSONRPCMessage,
  ): Promise<readonly LostCall[]>;
  /**
   * The answers of the lost calls of stream `streamId` of `sessionId` were stored on that stream:
   * a client resuming it on any replica replays them (see `failedOver`). Expires with the session.
   */
  markFailedOver?(sessionId: string, streamId: string): Promise<void>;
  /** Whether `lastEventId` names a stream of `sessionId` whose lost calls' answers were stored. */
  failedOver?(sessionId: string, lastEventId: string): Promise<boolean>;
}

/** A call of a lost replica, taken from the cluster's list by {@link ClusterCalls.claimLost}. */
export interface LostCall {
  readonly sessionId: string;
  readonly id: JSONRPCId;
  /** The replica that ran it (gone). */
  readonly replicaId: string;
  /** The SSE stream that was to carry its answer; absent when unknown (a plain JSON answer). */
  readonly streamId: string | undefined;
}

/**
 * A session's standalone GET stream across replicas: a server message for it reaches the replica
 * that holds the stream, or is kept (bounded) until a GET stream opens on any replica.
 */
export interface ClusterGetStreams {
  /**
   * Sends a server message to the replica holding the session's GET stream (never this one: call it
   * when this replica has no GET stream open for the session); when no other replica holds it, the
   * message is kept for the next GET stream.
   */
  send(sessionId: string, frame: Frame): Promise<void>;
  /**
   * This replica now holds the session's GET stream: resolves with the messages kept for it
   * meanwhile, oldest first (and keeps them no longer).
   */
  hold(sessionId: string): Promise<readonly Frame[]>;
}

/** Who holds a legacy HTTP+SSE session's stream, and whose session it is. */
export interface SseHolder {
  /** The replica whose process holds the stream (the session lives there). */
  readonly replicaId: string;
  /** The token name that opened the stream; other tokens get 404. */
  readonly owner: string;
  /** The profile it was opened on; `""` for the default endpoint. */
  readonly profile: string;
}

/** A message POSTed for a legacy SSE session to a replica that does not hold its stream. */
export interface ForwardedSseMessage {
  readonly sessionId: string;
  /** The token name that POSTed it (the receiving replica checked it against the holder record). */
  readonly owner: string;
  readonly profile: string;
  readonly frame: Frame;
  /** Invalid elements of a POSTed batch, as the transport reports them. */
  readonly rejected?: FrameInfo["rejected"];
  /**
   * The POST was not JSON-RPC (the receiving replica answered 400): `frame` is the error response
   * owed to the client, which the holder reports to the session (its Connection sends it on the stream).
   */
  readonly invalid?: true;
}

/**
 * The legacy HTTP+SSE (2024-11-05) sessions across replicas: the replica holding each stream is
 * recorded, so that a POST to `/messages` reaching another replica is forwarded to the holder.
 */
export interface ClusterSseSessions {
  /**
   * Records this replica as the holder of `sessionId` (expiring after the session TTL, refreshed
   * while it is held here); resolves once stored.
   */
  hold(sessionId: string, owner: string, profile: string): Promise<void>;
  /** The stream closed here: deletes the record. */
  release(sessionId: string): Promise<void>;
  /** The holder record of `sessionId`, or `undefined` when none (closed, expired, never opened). */
  holderOf(sessionId: string): Promise<SseHolder | undefined>;
  /** Sends `message` to replica `replicaId`; resolves false when that replica no longer listens. */
  forward(replicaId: string, message: ForwardedSseMessage): Promise<boolean>;
  /** Hears the messages forwarded to this replica. */
  onForwarded(listener: (message: ForwardedSseMessage) => void): Unsubscribe;
}

/** A modern (2026-07-28) request handed from the replica it reached to the replica holding its call. */
export interface RelayedModernRequest {
  /** The profile it came in on; `""` for the default endpoint. */
  readonly profile: string;
  /** The token name that sent it (the replica it reached authenticated it). */
  readonly caller: string;
  readonly message: JSONRPCRequest;
}

/** How a relayed modern request is served: its cancellation and its notifications. */
export interface RelayedModernContext {
  /** Aborted when the client goes away (its response stream closed). */
  readonly signal: AbortSignal;
  /** A notification of the request (progress, log), sent before its response. */
  notify(method: string, params: Record<string, unknown>): void;
}

/**
 * Carries a modern retry (`requestState` naming a call held on another replica) to the replica that
 * holds the call, and its notifications and answer back.
 */
export interface ModernRelay {
  /**
   * Hands `request` to replica `replicaId` and resolves with its answer; rejects (the message says
   * why) when that replica is gone, stops before answering, or cannot be reached.
   */
  forward(
    replicaId: string,
    request: RelayedModernRequest,
    context: RelayedModernContext,
  ): Promise<JSONRPCResponse>;
  /** Serves the requests relayed to this replica for `profile` (`""`: the default endpoint). */
  serve(
    profile: string,
    handler: (
      request: RelayedModernRequest,
      context: RelayedModernContext,
    ) => Promise<JSONRPCResponse | undefined>,
  ): Unsubscribe;
}

/**
 * What an HTTP gateway replica shares with the others (see `@patchbay/cluster-redis`): session
 * records, the SSE event store, rate-limit buckets and a bus between replicas.
 */
export interface GatewayCluster {
  /** This replica's name, unique among the replicas. */
  readonly replicaId: string;
  readonly sessions: SharedSessionStore;
  /** Resumable SSE events, readable by every replica. */
  readonly eventStore: EventStore;
  readonly bus: ClusterBus;
  readonly calls: ClusterCalls;
  readonly getStreams: ClusterGetStreams;
  /** A limiter whose buckets every replica shares. */
  createRateLimiter(options: RateLimiterOptions): SharedRateLimiter;
  /** False while the shared store cannot be reached: new sessions get 503, `/readyz` 503. */
  readonly available: boolean;
  /** Hears the shared store come back after an outage (it may have come back empty). */
  onAvailable(listener: () => void): Unsubscribe;
  /** Replicas whose heartbeat is fresh, this one included. */
  readonly liveReplicas: number;
  /**
   * Hears each replica that this one saw live found gone (killed, crashed, cut off) at this
   * replica's heartbeat, once per process; the gateway fails its calls over (`ClusterCalls.failOver`).
   */
  onReplicaGone?(listener: (replicaId: string) => void): Unsubscribe;
  /** Forwards legacy SSE POSTs to the replica holding the stream; without it, they stay local. */
  readonly sse?: ClusterSseSessions;
  /** Relays modern retries to the replica holding their call; without it, they are served here. */
  readonly modern?: ModernRelay;
  /** What `/readyz` shows of the cluster (no secrets). */
  status(): Readonly<Record<string, unknown>>;
}
