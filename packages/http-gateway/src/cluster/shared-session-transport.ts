import {
  type Frame,
  type FrameInfo,
  isBatch,
  type JSONRPCId,
  type JSONRPCMessage,
  type TappedTransport,
  type Transport,
  tapTransport,
} from "@patchbay/jsonrpc-core";
import { PatchbayErrorCode } from "@patchbay/mcp-types";
import { type AnswerRouting, createAnswerRouting } from "./answer-routing.js";
import type { GatewayCluster, SharedSessionRecord } from "./cluster.js";
import { createSessionSync, type SessionSync } from "./session-sync.js";
import { createSharedSubscriptions, type SharedSubscriptions } from "./shared-subscriptions.js";

/** JSON-RPC code of an `initialize` whose session could not be shared (`SharedStoreUnavailable`). */
export const SHARED_STORE_UNAVAILABLE_CODE = PatchbayErrorCode.SharedStoreUnavailable;
const ADOPT_INITIALIZE_ID = "~adopt~initialize";
const ADOPT_LOGGING_ID = "~adopt~logging";

/** Options of {@link shareSession}. */
export interface SharedSessionOptions {
  readonly sessionId: string;
  readonly owner: string;
  /** `""` for the default endpoint. */
  readonly profile: string;
  readonly cluster: GatewayCluster;
  /** The session idle TTL: how long the shared record outlives the last activity. */
  readonly ttlMs: number;
  readonly now: () => number;
  /** The record this replica adopts the session from; absent for a session created here. */
  readonly adopted?: SharedSessionRecord | undefined;
  readonly onWarning: (message: string) => void;
  /** Whether this replica holds the session's standalone GET stream. */
  readonly hasStandaloneStream: () => boolean;
}

/** A session transport shared through the cluster. */
export interface SharedSessionTransport extends Transport {
  /** Delivers a client's answer that another replica received for this replica's request. */
  deliverRemote(frame: Frame): void;
  /** A record saved by any replica (see `SessionSync.applySaved`). */
  applySaved(record: SharedSessionRecord): void;
  /** A resource subscription of the session changed by any replica (see `SharedSubscriptions`). */
  applySubscription(uri: string, subscribed: boolean): void;
  /** A client message broadcast by another replica (see `SessionSync.applyBroadcast`). */
  applyBroadcast(frame: Frame, toClient: boolean): void;
  /** Sends a server message on the session's GET stream: false when none is open here. */
  toGetStream(frame: Frame): boolean;
  /** Whether this replica holds the session's GET stream. */
  hasGetStream(): boolean;
  /** Saves the record again (after Redis came back empty). */
  resave(): Promise<void>;
}

/**
 * Wraps a Streamable HTTP session's transport (below the router) so that any replica can serve it:
 * - created here: the client's `initialize` params and the negotiated revision are saved to the
 *   shared store before the answer leaves (so the client's next request may land anywhere), and
 *   `logging/setLevel` updates the record;
 * - adopted from the store: the router session is brought past `initialize` with the stored params
 *   (and logging level, and the owning token's name as `extra.authInfo.name`) before the client's
 *   own frames reach it, and those answers are dropped;
 * - server-to-client request ids are prefixed with the replica id, so that a client's answer that
 *   lands on another replica travels back over the bus to the replica that asked.
 */
export function shareSession(
  inner: Transport,
  options: SharedSessionOptions,
): SharedSessionTransport {
  const session = createSharedSession(inner, options);
  const tapped = tapTransport(inner, {
    incoming: (frame, info) => incoming(session, frame, info),
    outgoing: (frame, sendOptions) => send(session, frame, sendOptions),
    started: () => replayInitialize(session),
    // Only a DELETE ends the session everywhere (`ClusterPlugin.forgetSession`, before its 200);
    // an idle or draining replica ends its copy.
  });
  session.tapped = tapped;
  // What the cluster asks of the session, on the tapped transport itself.
  return Object.assign<Transport, Omit<SharedSessionTransport, keyof Transport>>(
    tapped,
    clusterSide(session),
  );
}

/** One shared session's parts and where it is: what its frames, either way, read. */
interface SharedSession {
  readonly inner: Transport;
  readonly options: SharedSessionOptions;
  readonly warn: (what: string) => (error: unknown) => void;
  /** Pushes the record's expiry ahead (see `createToucher`). */
  readonly touch: () => void;
  readonly sync: SessionSync;
  readonly subscriptions: SharedSubscriptions;
  readonly phase: PhaseTracker;
  readonly answers: AnswerRouting;
  /** The tapped transport, set as soon as it is made (before any frame). */
  tapped: TappedTransport | undefined;
  /** An adopted session's client frames, held until its router session is past `initialize`. */
  buffered: [Frame, FrameInfo][] | undefined;
  /** The client's `initialize` request, until it is answered. */
  initialize: { id: JSONRPCId; params: Record<string, unknown> } | undefined;
  /** Frames made here (the adoption's replay, remote answers) go straight to the listeners. */
  emit(frame: Frame, info: FrameInfo): void;
  /** A frame for the router: held while the client's frames are, else emitted. */
  deliver(frame: Frame, info: FrameInfo): void;
}

/** The session's parts: its record kept in sync, its subscriptions, its handshake and answers. */
function createSharedSession(inner: Transport, options: SharedSessionOptions): SharedSession {
  const { cluster, sessionId } = options;
  const warn = (what: string) => (error: unknown) =>
    options.onWarning(`session ${sessionId}: ${what}: ${String(error)}`);
  const emit = (frame: Frame, info: FrameInfo) => session.tapped?.emitFrame(frame, info);
  const deliver = (frame: Frame, info: FrameInfo) => {
    if (session.buffered !== undefined) session.buffered.push([frame, info]);
    else emit(frame, info);
  };
  const sync = createSessionSync({ ...options, warn, emit: deliver });
  const phase = createPhaseTracker((info) =>
    deliver({ jsonrpc: "2.0", method: "notifications/initialized" }, info),
  );
  // An adopted session's router session gets its `initialized` with the replayed handshake.
  if (options.adopted !== undefined) phase.initialized();
  const session: SharedSession = {
    inner,
    options,
    warn,
    touch: createToucher(options, warn("refreshing its record")),
    sync,
    subscriptions: createSharedSubscriptions({ ...options, inner, sync, deliver, warn }),
    phase,
    answers: createAnswerRouting({
      replicaId: cluster.replicaId,
      sessionId,
      bus: cluster.bus,
      onWarning: warn("forwarding an answer to another replica"),
    }),
    tapped: undefined,
    buffered: options.adopted === undefined ? undefined : [],
    initialize: undefined,
    emit,
    deliver,
  };
  return session;
}

/** The client's frame as the router gets it (`undefined`: nothing left, or held until adopted). */
function incoming(session: SharedSession, frame: Frame, info: FrameInfo): Frame | undefined {
  const { answers, phase, subscriptions, sync } = session;
  const messages = isBatch(frame) ? frame : [frame];
  for (const message of messages) {
    if ("method" in message && message.method === "initialize" && "id" in message) {
      const params = (message.params ?? {}) as Record<string, unknown>;
      session.initialize = { id: message.id, params };
    }
  }
  const kept = messages.flatMap((message) => {
    const routed = answers.incoming(message);
    const admitted =
      routed !== undefined &&
      phase.admit(routed, info) &&
      !subscriptions.refused(routed) &&
      sync.incoming(routed, info);
    return admitted ? [routed] : [];
  });
  if (kept.length === 0) return undefined;
  session.touch();
  const admitted = isBatch(frame) ? kept : (kept[0] as JSONRPCMessage);
  if (session.buffered === undefined) return admitted;
  session.buffered.push([admitted, info]);
  return undefined;
}

/** An adopted session's transport started: its router session gets the stored `initialize`. */
function replayInitialize(session: SharedSession): void {
  const { sync, options } = session;
  if (sync.record === undefined || session.buffered === undefined) return;
  const params = sync.record.initializeParams;
  const replayed = { jsonrpc: "2.0", id: ADOPT_INITIALIZE_ID, method: "initialize", params };
  // The owning token's name (never the token), as on the replica that created the session.
  const authInfo = { name: options.owner };
  session.emit(replayed as JSONRPCMessage, { extra: { sessionId: options.sessionId, authInfo } });
}

/** The router answered the replayed `initialize`: the client's own frames may go in now. */
function adoptionAnswered(session: SharedSession): void {
  const { emit } = session;
  const info: FrameInfo = { extra: { sessionId: session.options.sessionId } };
  session.phase.initialized();
  emit({ jsonrpc: "2.0", method: "notifications/initialized" }, info);
  replayLoggingLevel(session.sync.record?.loggingLevel, emit, info);
  void session.subscriptions.resubscribe(emit).then(() => {
    const waiting = session.buffered ?? [];
    session.buffered = undefined;
    for (const [frame, frameInfo] of waiting) emit(frame, frameInfo);
  });
}

/**
 * A frame the router sends: answers (the replay's dropped, `initialize`'s saved first), and server
 * messages, on the call's stream or the session's GET stream wherever it is held.
 */
async function send(
  session: SharedSession,
  frame: Frame,
  sendOptions?: Parameters<Transport["send"]>[1],
): Promise<void> {
  const { inner, sync, subscriptions, options } = session;
  if (isBatch(frame)) {
    for (const message of frame) await subscriptions.answered(message);
    return sendAnswers(inner, sync, frame, sendOptions);
  }
  if (!("method" in frame)) {
    if (frame.id === ADOPT_INITIALIZE_ID) return adoptionAnswered(session);
    const ours = frame.id === ADOPT_LOGGING_ID || sync.ownsAnswer(frame);
    if (ours || (await subscriptions.answered(frame))) return;
    const initialize = session.initialize;
    if (initialize === undefined || frame.id !== initialize.id) {
      return sendAnswers(inner, sync, frame, sendOptions);
    }
    session.initialize = undefined;
    const phase = session.phase;
    return answerInitialize(frame, initialize.params, { inner, sync, phase, options, sendOptions });
  }
  const outgoing = "id" in frame ? session.answers.outgoing(frame) : frame;
  const related = sendOptions?.relatedRequestId;
  const onCallStream =
    frame.method === "notifications/progress" ||
    (related !== undefined && sync.isInFlight(related));
  if (onCallStream || options.hasStandaloneStream()) return inner.send(outgoing, sendOptions);
  // For the GET stream, which another replica may hold, or none yet (then it is kept for it).
  await options.cluster.getStreams
    .send(options.sessionId, outgoing)
    .catch(session.warn("sending a message to the GET stream"));
}

/** What the cluster asks of the session (see {@link SharedSessionTransport}). */
function clusterSide(session: SharedSession): Omit<SharedSessionTransport, keyof Transport> {
  const { inner, options, sync, subscriptions, answers } = session;
  const toGetStream = (frame: Frame): boolean => {
    if (!options.hasStandaloneStream()) return false;
    inner.send(frame).catch(session.warn("sending a message to the GET stream"));
    return true;
  };
  return {
    applySaved: (saved) => sync.applySaved(saved),
    applySubscription: (uri, subscribed) => subscriptions.applySubscription(uri, subscribed),
    applyBroadcast(frame, toClient) {
      if (toClient) toGetStream(frame);
      else for (const message of isBatch(frame) ? frame : [frame]) sync.applyBroadcast(message);
    },
    toGetStream,
    hasGetStream: () => options.hasStandaloneStream(),
    async resave() {
      if (sync.record === undefined) return;
      await options.cluster.sessions.save(
        { ...sync.record, lastActivityAt: options.now() },
        options.ttlMs,
      );
      await subscriptions.restore();
    },
    deliverRemote(frame) {
      const messages = isBatch(frame) ? frame : [frame];
      for (const message of messages) {
        const routed = answers.incoming(message);
        if (routed !== undefined)
          session.deliver(routed, { extra: { sessionId: options.sessionId } });
      }
    },
  };
}

/** An adopted session's router session gets the logging level the client set, if it set one. */
function replayLoggingLevel(
  level: string | undefined,
  emit: (frame: Frame, info: FrameInfo) => void,
  info: FrameInfo,
): void {
  if (level === undefined) return;
  const params = { level };
  emit({ jsonrpc: "2.0", id: ADOPT_LOGGING_ID, method: "logging/setLevel", params }, info);
}

/**
 * Sends responses (saving a logging level first), and takes their calls off the cluster's list only
 * once they were handed to the client's stream.
 */
async function sendAnswers(
  inner: Transport,
  sync: SessionSync,
  frame: Frame,
  sendOptions: Parameters<Transport["send"]>[1],
): Promise<void> {
  const messages = isBatch(frame) ? frame : [frame];
  for (const message of messages) await sync.answered(message);
  await inner.send(frame, sendOptions).finally(() => {
    for (const message of messages) sync.sent(message);
  });
}

/**
 * Saves the record of a session created here, then sends the client its `initialize` answer; when
 * the store failed, an error instead, and the session ends (no other replica could find it).
 */
async function answerInitialize(
  frame: JSONRPCMessage,
  initializeParams: Record<string, unknown>,
  context: {
    readonly inner: Transport;
    readonly sync: SessionSync;
    readonly phase: { answered(): void };
    readonly options: SharedSessionOptions;
    readonly sendOptions: Parameters<Transport["send"]>[1];
  },
): Promise<void> {
  const { inner, sync } = context;
  const created = await createRecord(frame, initializeParams, context.options);
  if (created !== undefined) {
    sync.record = created;
    context.phase.answered();
  }
  const answer = created === undefined ? unavailableAnswer(frame) : frame;
  await inner.send(answer, context.sendOptions).finally(() => sync.sent(frame));
  if (answer !== frame) await inner.close();
}

/** Pushes the record's expiry ahead on activity, at most once per tenth of the TTL (or minute). */
function createToucher(options: SharedSessionOptions, onError: (error: unknown) => void) {
  let lastTouch = options.now();
  return () => {
    const now = options.now();
    if (now - lastTouch < Math.min(options.ttlMs / 10, 60_000)) return;
    lastTouch = now;
    options.cluster.sessions.touch(options.sessionId, now, options.ttlMs).catch(onError);
  };
}

/** Builds the record of a session created here and saves it; `undefined` when the store failed. */
async function createRecord(
  answer: JSONRPCMessage,
  initializeParams: Record<string, unknown>,
  options: SharedSessionOptions,
): Promise<SharedSessionRecord | undefined> {
  if (!("result" in answer)) return undefined;
  const record: SharedSessionRecord = {
    sessionId: options.sessionId,
    owner: options.owner,
    profile: options.profile,
    protocolVersion: String((answer.result as { protocolVersion?: unknown }).protocolVersion),
    initializeParams,
    lastActivityAt: options.now(),
  };
  try {
    await options.cluster.sessions.save(record, options.ttlMs);
    return record;
  } catch (error) {
    options.onWarning(`session ${options.sessionId}: saving the new session: ${String(error)}`);
    return undefined;
  }
}

/** The answer to an `initialize` whose session could not be shared. */
function unavailableAnswer(answer: JSONRPCMessage): JSONRPCMessage {
  const id = "id" in answer ? answer.id : null;
  const message = "the shared session store cannot be reached; try again shortly";
  return { jsonrpc: "2.0", id, error: { code: SHARED_STORE_UNAVAILABLE_CODE, message } };
}

/** See {@link createPhaseTracker}. */
interface PhaseTracker {
  answered(): void;
  initialized(): void;
  /** Whether `message` goes on to the router (after an inferred `initialized`, if due). */
  admit(message: JSONRPCMessage, info: FrameInfo): boolean;
}

/**
 * Where a shared session's router session is in the handshake. The client sends
 * `notifications/initialized` once, to whichever replica the balancer picks: a replica whose router
 * session did not get it infers it from the client's next request (MCP "Lifecycle": only pings may
 * come before it), and a second one (after an adoption) is dropped.
 */
function createPhaseTracker(injectInitialized: (info: FrameInfo) => void): PhaseTracker {
  let state: "new" | "answered" | "initialized" = "new";
  return {
    answered() {
      if (state === "new") state = "answered";
    },
    initialized() {
      state = "initialized";
    },
    /** Whether `message` goes on to the router (after an inferred `initialized`, if due). */
    admit(message: JSONRPCMessage, info: FrameInfo): boolean {
      const isInitialized = "method" in message && message.method === "notifications/initialized";
      if (state === "initialized") return !isInitialized;
      if (state === "answered" && isInitialized) state = "initialized";
      else if (state === "answered" && !("method" in message && message.method === "ping")) {
        state = "initialized";
        injectInitialized(info);
      }
      return true;
    },
  };
}
