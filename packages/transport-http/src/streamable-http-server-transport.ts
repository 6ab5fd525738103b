import {
  type Frame,
  type FrameInfo,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCResponse,
  messagesOf,
  type SendOptions,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import type { TimerHandle } from "./clock.js";
import { MCP_SESSION_ID_HEADER } from "./constants.js";
import { type HttpResponseSink, randomId } from "./http-io.js";
import {
  abandonPostExchange,
  capResponses,
  createPostExchange,
  ExchangeRoutes,
  endJsonAnswer,
  isUndecided,
  markDecided,
  type PostExchange,
} from "./post-exchange.js";
import type { ServerSseStream } from "./server-sse-stream.js";
import { IdleTimer, type IdleTimerOwner } from "./session-registry.js";
import {
  openSessionStream,
  type ResponseMode,
  type SessionSettings,
  type StreamSession,
  shouldPrime,
} from "./session-settings.js";
import { StandaloneChannel, standaloneStreamId } from "./standalone-channel.js";

export type { ResponseMode, SessionSettings } from "./session-settings.js";

/** How many finished POST answers of one session stay resumable. */
const MAX_RESUMABLE_POST_STREAMS = 100;

/**
 * The server side of one Streamable HTTP session (or, in stateless mode, of one POST), handed to
 * `onSession`. It routes each outgoing response to the HTTP exchange that carried its request, sends
 * server-initiated messages that are related to a request on that request's SSE stream (the relation
 * is the sender's `relatedRequestId`, or the progress token), and everything else on the standalone
 * GET stream.
 */
export class StreamableHttpServerTransport implements Transport {
  /** The `Mcp-Session-Id` of this session; `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /** @internal The `Mcp-Session-Id` response header (none in stateless mode), made once. */
  readonly sessionHeaders: Readonly<Record<string, string>>;
  /** The protocol revision the client asked for or last announced. */
  protocolVersion: string;
  /**
   * The newest revision the client has announced in this session (at initialize or in a header).
   * A client that asked for 2025-11-25 handles priming events even when a later request's header
   * names an older revision, so priming follows this one.
   */
  private newestClientVersion: string;
  private readonly settings: SessionSettings;
  private readonly events = new TransportEvents();
  private readonly routes = new ExchangeRoutes();
  /**
   * Ids of this session's finished, still resumable POST answers, oldest first (the open ones are
   * in `routes`).
   */
  private postStreamIds: Set<string> | undefined;
  /** The standalone GET stream's channel, made when first needed (see {@link standalone}). */
  private standaloneChannel: StandaloneChannel | undefined;
  private readonly idleTimer: IdleTimer;
  private readonly idleTimeoutMs: number;
  /** What this session's SSE streams are told (made with the first stream). */
  private streamSessionOf: StreamSession | undefined;
  private established = false;
  /**
   * POST answers' stream ids: one random prefix per session and a count, unique across sessions
   * (a stream is resumed only by the session that owns it).
   */
  private readonly streamPrefix = randomId();
  private postCount = 0;
  /** The timer that opens the streams of `auto` answers still pending (see {@link armStreamTimer}). */
  private streamTimer: TimerHandle | undefined;
  private readonly onEnded: (transport: StreamableHttpServerTransport) => void;

  /** @internal Created by the handler; not meant to be constructed by users. */
  constructor(init: {
    sessionId: string | undefined;
    protocolVersion: string;
    settings: SessionSettings;
    idleTimeoutMs: number;
    /** The shorter idle time of a session whose client has not come back after initialize. */
    uninitializedTimeoutMs?: number;
    onEnded: (transport: StreamableHttpServerTransport) => void;
  }) {
    this.sessionId = init.sessionId;
    this.sessionHeaders = Object.freeze(
      init.sessionId === undefined ? {} : { [MCP_SESSION_ID_HEADER]: init.sessionId },
    );
    this.protocolVersion = init.protocolVersion;
    this.newestClientVersion = init.protocolVersion;
    this.settings = init.settings;
    this.onEnded = init.onEnded;
    this.idleTimeoutMs = init.idleTimeoutMs;
    this.idleTimer = new IdleTimer(
      init.settings.clock,
      firstTimeout(init.idleTimeoutMs, init.uninitializedTimeoutMs ?? 0),
      new SessionIdleness(this),
    );
  }

  /** True once the session has ended. */
  get closed(): boolean {
    return this.events.closed;
  }

  /** @internal True while a stream is open or a POST waits for responses (never idle then). */
  get isBusy(): boolean {
    return this.standaloneChannel?.isOpen === true || this.routes.size > 0;
  }

  /** True while a standalone GET stream is open. */
  get hasStandaloneStream(): boolean {
    return this.standaloneChannel?.isOpen === true;
  }

  /** The standalone GET stream's channel; an idle session without one holds none. */
  private get standalone(): StandaloneChannel {
    this.standaloneChannel ??= new StandaloneChannel(
      this.settings,
      () =>
        this.events.emitError(
          new TransportError("Dropped the oldest server message waiting for a GET stream"),
        ),
      this.streamSession,
    );
    return this.standaloneChannel;
  }

  async start(): Promise<void> {
    this.events.start();
  }

  async send(frame: Frame, options?: SendOptions): Promise<void> {
    if (this.events.closed) throw new TransportError("Streamable HTTP session is closed");
    const related = options?.relatedRequestId;
    // Each way out hands back the promise it waits on: no turn here to resume for nothing.
    if (!Array.isArray(frame)) return this.route(frame as JSONRPCMessage, related);
    const batchExchange = this.routes.batchTarget(frame);
    if (batchExchange !== undefined) {
      // A batch reply whose every response answers the same POST travels as one batch.
      return this.answer(batchExchange, frame as readonly JSONRPCResponse[]);
    }
    await Promise.all(messagesOf(frame).map((message) => this.route(message, related)));
  }

  async close(): Promise<void> {
    this.end({ initiator: "local" });
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.events.onClose(listener);
  }

  /**
   * Ends the standalone GET stream without ending the session; the client reconnects after the
   * `retry:` delay with `Last-Event-ID` (MCP 2025-11-25 SSE polling). Messages sent meanwhile wait.
   */
  closeStandaloneStream(): void {
    this.standaloneChannel?.detach();
  }

  /**
   * Ends the SSE answer of the POST that carried request `id` before its response; the client
   * resumes it with GET and `Last-Event-ID` after the `retry:` delay, and gets the response then
   * (MCP 2025-11-25 SSE polling). Returns false when no open SSE answer carries that request.
   */
  closeRequestStream(id: JSONRPCId): boolean {
    const exchange = this.routes.forRequest(id);
    if (exchange === undefined) return false;
    // An `auto` answer still undecided becomes a stream (primed, so the client can resume it).
    const stream = isUndecided(exchange) ? this.openAnswerStream(exchange).stream : exchange.stream;
    if (stream === undefined || stream.closed) return false;
    void stream.end();
    return true;
  }

  /** @internal Records the revision a request announced in `MCP-Protocol-Version`. */
  announceVersion(version: string): void {
    this.protocolVersion = version;
    if (version > this.newestClientVersion) this.newestClientVersion = version;
  }

  /**
   * @internal Records HTTP activity for the idle timeout. The first request after initialize
   * establishes the session: from then on the full idle timeout applies.
   */
  touch(): void {
    this.idleTimer.touch();
    if (this.established) return;
    this.established = true;
    this.idleTimer.retime(this.idleTimeoutMs);
  }

  /** @internal Ends the session because the peer or the handler said so. */
  end(event: TransportCloseEvent): void {
    if (this.events.closed) return;
    this.idleTimer.stop();
    if (this.streamTimer !== undefined) this.settings.clock.clearTimeout(this.streamTimer);
    this.streamTimer = undefined;
    const open = this.routes.clear();
    for (const exchange of open) abandonPostExchange(exchange);
    this.standaloneChannel?.end();
    const store = this.settings.eventStore;
    // A stateful session's standalone stream may have events (from a replica too) even if this
    // transport never opened it; a stateless one's has none unless its channel was made.
    const standaloneId =
      this.standaloneChannel?.streamId ??
      (this.sessionId === undefined ? undefined : standaloneStreamId(this.sessionId));
    const streamIds = [...(this.postStreamIds ?? [])];
    if (standaloneId !== undefined) streamIds.unshift(standaloneId);
    for (const exchange of open) streamIds.push(exchange.streamId);
    for (const streamId of streamIds) {
      store?.forgetStream?.(streamId);
    }
    this.onEnded(this);
    this.events.emitClose(event);
  }

  /** @internal Delivers a frame that needs no answer beyond 202 (notifications, responses). */
  deliver(frame: Frame, info: FrameInfo): void {
    this.events.emitFrame(frame, info);
  }

  /**
   * @internal Takes a POST carrying requests: registers the routes of its request ids, opens the SSE
   * answer when `mode` is `sse`, then delivers the frame. Resolves once the answer's headers are
   * written: at once in `sse` and `json` modes, with the first frame for it in `auto` mode.
   */
  async exchange(
    frame: Frame,
    info: FrameInfo,
    response: HttpResponseSink,
    mode: ResponseMode,
    headers: Readonly<Record<string, string>>,
    rejected: readonly JSONRPCResponse[] = [],
  ): Promise<void> {
    this.postCount += 1;
    const streamId = `${this.streamPrefix}-${this.postCount}`;
    const exchange = createPostExchange(frame, response, mode, rejected, streamId, headers);
    this.routes.add(exchange);
    if (mode === "sse") {
      const { ready } = this.openAnswerStream(exchange);
      // The frame goes in before the priming event is stored, so that a listener (a cluster's list
      // of calls in flight) records its requests before the client holds an id to resume with.
      this.events.emitFrame(frame, { ...info, extra: { ...info.extra, streamId } });
      return ready;
    } else if (mode === "json") {
      // Headers go out now so the client's send() completes; the body follows once answered.
      response.writeHead(200, { ...headers, "content-type": "application/json" });
      response.flushHeaders();
      response.on("close", () => {
        if (!response.writableFinished) exchange.done = true;
      });
    } else {
      // `auto`: nothing is written until the first frame for this POST decides the format. A call
      // still running after a keep-alive interval gets its stream (keep-alives, resumability).
      const delay = this.settings.keepAliveIntervalMs;
      if (delay > 0) {
        exchange.streamDeadline = this.settings.clock.now() + delay;
        // One timer per session instead of one per POST: it opens the streams that are due.
        if (this.streamTimer === undefined) this.armStreamTimer(delay);
      }
      const decided = new Promise<void>((resolve) => {
        exchange.decided = resolve;
      });
      this.events.emitFrame(frame, info);
      return decided;
    }
    this.events.emitFrame(frame, info);
  }

  /**
   * Opens the SSE answer of an exchange: headers, a priming event when resumable, then what was
   * already collected for it (invalid batch elements, earlier responses of a batch), in that order.
   * `ready` settles once those are written (rejecting when the event store fails).
   */
  private openAnswerStream(exchange: PostExchange): {
    stream: ServerSseStream;
    ready: Promise<void>;
  } {
    this.stopStreamTimer(exchange);
    markDecided(exchange);
    const prime = shouldPrime(this.settings, this.newestClientVersion);
    // A primed stream's headers leave with its priming event, once that is stored.
    const stream = openSessionStream(
      this.settings,
      exchange.response,
      exchange.streamId,
      exchange.headers,
      this.streamSession,
      prime,
    );
    exchange.stream = stream;
    // Writes are queued in order: the earlier messages follow the priming event.
    const writes: Promise<void>[] = [];
    if (prime) writes.push(stream.prime(this.settings.retryIntervalMs));
    const texts = exchange.collected;
    for (const [index, message] of exchange.collectedResponses.entries()) {
      writes.push(stream.send(message, texts[index]));
    }
    texts.length = 0;
    exchange.collectedResponses.length = 0;
    const ready = Promise.all(writes).then(() => {});
    // Callers that do not wait for it (a switch from `auto`) learn a store failure from the sends.
    ready.catch(() => {});
    return { stream, ready };
  }

  /** Stops the session's timer from opening an `auto` answer's stream. */
  private stopStreamTimer(exchange: PostExchange): void {
    exchange.streamDeadline = undefined;
  }

  /**
   * Arms the session's one `auto` stream timer: when it fires, it opens the stream of every answer
   * still undecided at its deadline and waits for the next deadline. Exchanges are kept in the order
   * they came, so their deadlines are in order too.
   */
  private armStreamTimer(delayMs: number): void {
    this.streamTimer = this.settings.clock.setTimeout(() => {
      this.streamTimer = undefined;
      const now = this.settings.clock.now();
      for (const exchange of this.routes.exchanges()) {
        const deadline = exchange.streamDeadline;
        if (deadline === undefined) continue;
        // (A deadline further away than one interval means the clock went back: due now.)
        if (deadline > now && deadline - now <= this.settings.keepAliveIntervalMs) {
          this.armStreamTimer(deadline - now);
          return;
        }
        exchange.streamDeadline = undefined;
        if (!exchange.done && isUndecided(exchange)) this.openAnswerStream(exchange);
      }
    }, delayMs);
  }

  /** @internal Opens the standalone GET stream; false when one is already open. */
  async openStandalone(
    response: HttpResponseSink,
    headers: Readonly<Record<string, string>>,
  ): Promise<boolean> {
    if (this.hasStandaloneStream) return false;
    await this.standalone.attach(response, headers, {
      prime: shouldPrime(this.settings, this.newestClientVersion),
    });
    return true;
  }

  /**
   * @internal Resumes a stream after `lastEventId`: replays only that stream's stored messages,
   * then keeps the new response as the stream. `unknown` when the id is not one of this session's.
   */
  async resume(
    lastEventId: string,
    response: HttpResponseSink,
    headers: Readonly<Record<string, string>>,
  ): Promise<"resumed" | "unknown" | "conflict"> {
    const store = this.settings.eventStore;
    if (store === undefined) return "unknown";
    // Collected first and written only once the stream is known to be this session's.
    const replay: [string, Frame][] = [];
    const streamId = await store.replayEventsAfter(lastEventId, (eventId, frame) => {
      replay.push([eventId, frame]);
    });
    if (streamId === this.standalone.streamId) {
      if (this.standalone.isOpen) return "conflict";
      await this.standalone.attach(response, headers, { prime: false, replay });
      return "resumed";
    }
    if (
      streamId === undefined ||
      !(this.postStreamIds?.has(streamId) === true || this.routes.isOpenStream(streamId))
    ) {
      return "unknown";
    }
    const exchange = this.routes.forStream(streamId);
    if (exchange?.stream !== undefined && !exchange.stream.closed) return "conflict";
    const stream = openSessionStream(
      this.settings,
      response,
      streamId,
      headers,
      this.streamSession,
    );
    for (const [eventId, frame] of replay) await stream.replay(frame, eventId);
    if (exchange === undefined || exchange.done) {
      // Every response of that POST was already sent: the replay is all there is.
      await stream.end();
      return "resumed";
    }
    exchange.stream = stream;
    return "resumed";
  }

  private async route(message: JSONRPCMessage, relatedRequestId?: JSONRPCId): Promise<void> {
    if (!("method" in message)) {
      const exchange = this.routes.forRequest(message.id);
      if (exchange === undefined) {
        this.events.emitError(
          new TransportError(`Dropped response ${String(message.id)}: no HTTP request awaits it`),
        );
        return;
      }
      return this.answer(exchange, message);
    }
    const related = this.relatedExchange(message, relatedRequestId);
    if (related !== undefined) {
      // The first related message of an undecided `auto` answer makes it a stream.
      const stream = related.stream ?? this.openAnswerStream(related).stream;
      return stream.send(message);
    }
    if (this.sessionId === undefined) {
      this.events.emitError(
        new TransportError(
          `Dropped ${message.method}: a stateless POST answered as JSON has no stream for it`,
        ),
      );
      return;
    }
    return this.standalone.send(message);
  }

  /**
   * The open answer a server-initiated message belongs on, if any: an SSE one, or an `auto` one
   * still undecided (which then becomes SSE).
   */
  private relatedExchange(
    message: JSONRPCMessage,
    relatedRequestId: JSONRPCId | undefined,
  ): PostExchange | undefined {
    const usable = (exchange: PostExchange | undefined) =>
      exchange !== undefined &&
      !exchange.done &&
      (exchange.stream !== undefined || isUndecided(exchange))
        ? exchange
        : undefined;
    // The sender names the request it works for; a progress token names it too.
    if (relatedRequestId !== undefined) {
      const byRelation = usable(this.routes.forRequest(relatedRequestId));
      if (byRelation !== undefined) return byRelation;
    }
    if ("method" in message && message.method === "notifications/progress") {
      const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
      if (typeof token === "string" || typeof token === "number") {
        return usable(this.routes.forProgressToken(token));
      }
    }
    return undefined;
  }

  /** Sends responses (one, or a batch answering the same POST) on their exchange. */
  private async answer(
    exchange: PostExchange,
    payload: JSONRPCResponse | readonly JSONRPCResponse[],
  ): Promise<void> {
    const batch = Array.isArray(payload);
    const { responses, texts } = capResponses(
      exchange,
      batch ? payload : [payload as JSONRPCResponse],
      this.settings.maxResponseBytes,
    );
    const finished = this.routes.settle(exchange, responses);
    const stream = exchange.stream;
    // Only streamed answers have events to resume; a JSON answer is whole or lost.
    if (finished && stream !== undefined) this.keepResumable(exchange.streamId);
    if (finished && this.sessionId === undefined && this.routes.size === 0) {
      // Stateless: the transport lives for one POST; it ends once that POST is answered.
      queueMicrotask(() => this.end({ initiator: "remote", details: { reason: "answered" } }));
    }
    if (stream !== undefined) {
      // A single response goes out as the text already made while counting its bytes.
      if (batch) await stream.send(responses);
      else await stream.send(responses[0] as Frame, texts[0]);
      if (finished) await stream.end();
      return;
    }
    if (finished) this.stopStreamTimer(exchange);
    for (const text of texts) exchange.collected.push(text);
    // `auto`: kept in case a related message opens a stream before the last response.
    if (!finished && exchange.mode === "auto") exchange.collectedResponses.push(...responses);
    if (finished) endJsonAnswer(exchange);
  }

  /** The session its SSE streams belong to; a client that stops reading one ends the session. */
  private get streamSession(): StreamSession {
    this.streamSessionOf ??= {
      sessionId: this.sessionId,
      onOverflow: (error: Error) => {
        this.events.emitError(error);
        this.end({ initiator: "error", error, details: { reason: "sse-client-not-reading" } });
      },
    };
    return this.streamSessionOf;
  }

  /**
   * Keeps the ids of the most recent finished POST answers only, so that a long session does not
   * grow without bound; the events of forgotten answers are dropped from the store too.
   */
  private keepResumable(streamId: string): void {
    const postStreamIds = this.postStreamIds ?? new Set<string>();
    this.postStreamIds = postStreamIds;
    postStreamIds.add(streamId);
    if (postStreamIds.size <= MAX_RESUMABLE_POST_STREAMS) return;
    const oldest = postStreamIds.values().next().value as string;
    postStreamIds.delete(oldest);
    this.settings.eventStore?.forgetStream?.(oldest);
  }
}

/** What a session's idle timer asks it (a small object instead of two closures per session). */
class SessionIdleness implements IdleTimerOwner {
  readonly #transport: StreamableHttpServerTransport;

  constructor(transport: StreamableHttpServerTransport) {
    this.#transport = transport;
  }

  isBusy(): boolean {
    return this.#transport.isBusy;
  }

  onIdle(): void {
    this.#transport.end({ initiator: "remote", details: { reason: "idle-timeout" } });
  }
}

/** The timeout a new session starts with: the shorter of the two that are set (0: none). */
function firstTimeout(idleTimeoutMs: number, uninitializedTimeoutMs: number): number {
  if (idleTimeoutMs === 0) return uninitializedTimeoutMs;
  if (uninitializedTimeoutMs === 0) return idleTimeoutMs;
  return Math.min(idleTimeoutMs, uninitializedTimeoutMs);
}
