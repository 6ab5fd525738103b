import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import {
  type Frame,
  type FrameInfo,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import type { Clock, TimerHandle } from "./clock.js";
import type { EventStore } from "./event-store.js";
import { idKey, messagesOf, progressTokenOf } from "./message-keys.js";
import { ServerSseStream } from "./server-sse-stream.js";
import { TransportEvents } from "./transport-events.js";

/** How a POST that carries requests is answered. */
export type ResponseMode = "sse" | "json";

/** Settings a handler shares with every session transport it creates. */
export interface SessionSettings {
  readonly clock: Clock;
  readonly keepAliveIntervalMs: number;
  readonly retryIntervalMs: number;
  readonly eventStore: EventStore | undefined;
  /** How many server-initiated messages wait for a GET stream before the oldest is dropped. */
  readonly maxPendingMessages: number;
}

/** One POST waiting for the responses to the requests it carried. */
interface Exchange {
  readonly mode: ResponseMode;
  readonly isBatch: boolean;
  readonly pending: Set<string>;
  readonly progressTokens: string[];
  readonly collected: JSONRPCResponse[];
  readonly response: ServerResponse;
  stream: ServerSseStream | undefined;
  readonly streamId: string;
  done: boolean;
}

const relatedExchange = new AsyncLocalStorage<Exchange>();

/** How many finished POST answers of one session stay resumable. */
const MAX_RESUMABLE_POST_STREAMS = 100;

/**
 * The server side of one Streamable HTTP session (or, in stateless mode, of one POST), handed to
 * `onSession`. It routes each outgoing response to the HTTP exchange that carried its request, sends
 * server-initiated messages that are related to a request on that request's SSE stream (the relation
 * is the async context of the request's handler, or the progress token), and everything else on the
 * standalone GET stream.
 */
export class StreamableHttpServerTransport implements Transport {
  /** The `Mcp-Session-Id` of this session; `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /** The protocol revision the client asked for or last announced. */
  protocolVersion: string;
  private readonly settings: SessionSettings;
  private readonly events = new TransportEvents();
  private readonly routes = new Map<string, Exchange>();
  private readonly progressRoutes = new Map<string, Exchange>();
  private readonly exchanges = new Set<Exchange>();
  private readonly ownStreamIds = new Set<string>();
  private readonly standaloneStreamId = randomUUID();
  private standalone: ServerSseStream | undefined;
  private pendingStandalone: JSONRPCMessage[] = [];
  private idleTimer: TimerHandle | undefined;
  private lastActivity: number;
  private readonly idleTimeoutMs: number;
  private readonly onEnded: (transport: StreamableHttpServerTransport) => void;

  /** @internal Created by the handler; not meant to be constructed by users. */
  constructor(init: {
    sessionId: string | undefined;
    protocolVersion: string;
    settings: SessionSettings;
    idleTimeoutMs: number;
    onEnded: (transport: StreamableHttpServerTransport) => void;
  }) {
    this.sessionId = init.sessionId;
    this.protocolVersion = init.protocolVersion;
    this.settings = init.settings;
    this.idleTimeoutMs = init.idleTimeoutMs;
    this.onEnded = init.onEnded;
    this.lastActivity = init.settings.clock.now();
    this.ownStreamIds.add(this.standaloneStreamId);
    if (this.idleTimeoutMs > 0) this.armIdleTimer(this.idleTimeoutMs);
  }

  /** True once the session has ended. */
  get closed(): boolean {
    return this.events.closed;
  }

  /** True while a standalone GET stream is open. */
  get hasStandaloneStream(): boolean {
    return this.standalone !== undefined && !this.standalone.closed;
  }

  async start(): Promise<void> {
    this.events.start();
  }

  async send(frame: Frame): Promise<void> {
    if (this.events.closed) throw new TransportError("Streamable HTTP session is closed");
    const batchExchange = this.batchAnswerTarget(frame);
    if (batchExchange !== undefined) {
      // A batch reply whose every response answers the same POST travels as one batch.
      await this.answer(batchExchange, frame as readonly JSONRPCResponse[]);
      return;
    }
    const writes: Promise<void>[] = [];
    for (const message of messagesOf(frame)) writes.push(this.route(message));
    await Promise.all(writes);
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
    const stream = this.standalone;
    this.standalone = undefined;
    void stream?.end();
  }

  /**
   * Ends the SSE answer of the POST that carried request `id` before its response; the client
   * resumes it with GET and `Last-Event-ID` after the `retry:` delay, and gets the response then
   * (MCP 2025-11-25 SSE polling). Returns false when no open SSE answer carries that request.
   */
  closeRequestStream(id: JSONRPCId): boolean {
    const exchange = this.routes.get(idKey(id));
    const stream = exchange?.stream;
    if (stream === undefined || stream.closed) return false;
    void stream.end();
    return true;
  }

  /** @internal Records HTTP activity for the idle timeout. */
  touch(): void {
    this.lastActivity = this.settings.clock.now();
  }

  /** @internal Ends the session because the peer or the handler said so. */
  end(event: TransportCloseEvent): void {
    if (this.events.closed) return;
    if (this.idleTimer !== undefined) this.settings.clock.clearTimeout(this.idleTimer);
    for (const exchange of this.exchanges) this.abandon(exchange);
    this.exchanges.clear();
    this.routes.clear();
    this.progressRoutes.clear();
    void this.standalone?.end();
    this.standalone = undefined;
    this.pendingStandalone = [];
    for (const streamId of this.ownStreamIds) this.settings.eventStore?.forgetStream?.(streamId);
    this.onEnded(this);
    this.events.emitClose(event);
  }

  /** @internal Delivers a frame that needs no answer beyond 202 (notifications, responses). */
  deliver(frame: Frame, info: FrameInfo): void {
    this.events.emitFrame(frame, info);
  }

  /**
   * @internal Takes a POST carrying requests: registers the routes of its request ids, opens the SSE
   * answer when `mode` is `sse`, then delivers the frame inside the exchange's async context.
   */
  async exchange(
    frame: Frame,
    info: FrameInfo,
    response: ServerResponse,
    mode: ResponseMode,
    headers: Readonly<Record<string, string>>,
    rejected: readonly JSONRPCResponse[] = [],
  ): Promise<void> {
    const exchange: Exchange = {
      mode,
      isBatch: Array.isArray(frame),
      pending: new Set(),
      progressTokens: [],
      collected: [...rejected],
      response,
      stream: undefined,
      streamId: randomUUID(),
      done: false,
    };
    for (const message of messagesOf(frame)) {
      if (!("method" in message) || !("id" in message)) continue;
      const key = idKey(message.id);
      exchange.pending.add(key);
      this.routes.set(key, exchange);
      const token = progressTokenOf(message);
      if (token !== undefined) {
        exchange.progressTokens.push(idKey(token));
        this.progressRoutes.set(idKey(token), exchange);
      }
    }
    this.exchanges.add(exchange);
    this.ownStreamIds.add(exchange.streamId);
    this.forgetOldStreams();
    if (mode === "sse") {
      exchange.stream = this.openStream(response, exchange.streamId, headers);
      if (this.settings.eventStore !== undefined && this.protocolVersion >= "2025-11-25") {
        await exchange.stream.prime(this.settings.retryIntervalMs);
      }
      // Invalid batch elements have no id to route by; they are answered first, on this stream.
      for (const message of rejected) await exchange.stream.send(message);
    } else {
      // Headers go out now so the client's send() completes; the body follows once answered.
      response.writeHead(200, { ...headers, "content-type": "application/json" });
      response.flushHeaders();
      response.on("close", () => {
        if (!exchange.done && !response.writableFinished) exchange.done = true;
      });
    }
    relatedExchange.run(exchange, () => this.events.emitFrame(frame, info));
  }

  /** @internal Opens the standalone GET stream; false when one is already open. */
  async openStandalone(
    response: ServerResponse,
    headers: Readonly<Record<string, string>>,
  ): Promise<boolean> {
    if (this.hasStandaloneStream) return false;
    const stream = this.openStream(response, this.standaloneStreamId, headers);
    this.standalone = stream;
    if (this.settings.eventStore !== undefined && this.protocolVersion >= "2025-11-25") {
      await stream.prime(this.settings.retryIntervalMs);
    }
    const pending = this.pendingStandalone;
    this.pendingStandalone = [];
    for (const message of pending) await stream.send(message);
    return true;
  }

  /**
   * @internal Resumes a stream after `lastEventId`: replays only that stream's stored messages,
   * then keeps the new response as the stream. Returns false when the id is unknown to this session.
   */
  async resume(
    lastEventId: string,
    response: ServerResponse,
    headers: Readonly<Record<string, string>>,
  ): Promise<"resumed" | "unknown" | "conflict"> {
    const store = this.settings.eventStore;
    if (store === undefined) return "unknown";
    const replay: [string, Frame][] = [];
    const streamId = await store.replayEventsAfter(lastEventId, (eventId, message) => {
      replay.push([eventId, message]);
    });
    if (streamId === undefined || !this.ownStreamIds.has(streamId)) return "unknown";
    if (streamId === this.standaloneStreamId) {
      if (this.hasStandaloneStream) return "conflict";
      const stream = this.openStream(response, streamId, headers);
      this.standalone = stream;
      for (const [eventId, message] of replay) await stream.replay(message, eventId);
      const pending = this.pendingStandalone;
      this.pendingStandalone = [];
      for (const message of pending) await stream.send(message);
      return "resumed";
    }
    const exchange = [...this.exchanges].find((candidate) => candidate.streamId === streamId);
    const stream = this.openStream(response, streamId, headers);
    for (const [eventId, message] of replay) await stream.replay(message, eventId);
    if (exchange === undefined || exchange.done) {
      // Every response of that POST was already sent: the replay is all there is.
      await stream.end();
      return "resumed";
    }
    if (exchange.stream !== undefined && !exchange.stream.closed) return "conflict";
    exchange.stream = stream;
    return "resumed";
  }

  private openStream(
    response: ServerResponse,
    streamId: string,
    headers: Readonly<Record<string, string>>,
  ): ServerSseStream {
    return new ServerSseStream(response, {
      streamId,
      clock: this.settings.clock,
      keepAliveIntervalMs: this.settings.keepAliveIntervalMs,
      eventStore: this.settings.eventStore,
      headers,
    });
  }

  private async route(message: JSONRPCMessage): Promise<void> {
    if (!("method" in message)) {
      if (message.id === null) {
        this.events.emitError(
          new TransportError("Dropped a response with id null: no HTTP request awaits it"),
        );
        return;
      }
      const exchange = this.routes.get(idKey(message.id));
      if (exchange === undefined) {
        this.events.emitError(
          new TransportError(`Dropped response ${String(message.id)}: no HTTP request awaits it`),
        );
        return;
      }
      await this.answer(exchange, message);
      return;
    }
    const related = this.relatedStream(message);
    if (related !== undefined) {
      await related.send(message);
      return;
    }
    if (this.sessionId === undefined) {
      this.events.emitError(
        new TransportError(
          `Dropped ${message.method}: a stateless POST answered as JSON has no stream for it`,
        ),
      );
      return;
    }
    if (this.standalone !== undefined && !this.standalone.closed) {
      await this.standalone.send(message);
      return;
    }
    this.pendingStandalone.push(message);
    if (this.pendingStandalone.length > this.settings.maxPendingMessages) {
      this.pendingStandalone.shift();
      this.events.emitError(
        new TransportError("Dropped the oldest server message waiting for a GET stream"),
      );
    }
  }

  private relatedStream(message: JSONRPCMessage): ServerSseStream | undefined {
    // The async context is shared by every session of the process: a request of another session
    // (say, one whose tool makes the server notify everyone) must not capture this session's message.
    const usable = (exchange: Exchange | undefined) =>
      exchange !== undefined &&
      !exchange.done &&
      exchange.mode === "sse" &&
      this.exchanges.has(exchange)
        ? exchange
        : undefined;
    let exchange = usable(relatedExchange.getStore());
    if (
      exchange === undefined &&
      "method" in message &&
      message.method === "notifications/progress"
    ) {
      const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
      if (typeof token === "string" || typeof token === "number") {
        exchange = usable(this.progressRoutes.get(idKey(token)));
      }
    }
    return exchange?.stream;
  }

  private batchAnswerTarget(frame: Frame): Exchange | undefined {
    if (!Array.isArray(frame) || frame.length === 0) return undefined;
    let target: Exchange | undefined;
    for (const message of frame as readonly JSONRPCMessage[]) {
      if ("method" in message || message.id === null) return undefined;
      const exchange = this.routes.get(idKey(message.id));
      if (exchange === undefined || (target !== undefined && exchange !== target)) return undefined;
      target = exchange;
    }
    return target;
  }

  /** Sends responses (one, or a batch answering the same POST) on their exchange. */
  private async answer(
    exchange: Exchange,
    payload: JSONRPCResponse | readonly JSONRPCResponse[],
  ): Promise<void> {
    const responses: readonly JSONRPCResponse[] = Array.isArray(payload)
      ? payload
      : [payload as JSONRPCResponse];
    for (const response of responses) {
      if (response.id === null) continue;
      const key = idKey(response.id);
      this.routes.delete(key);
      exchange.pending.delete(key);
    }
    const finished = exchange.pending.size === 0;
    if (finished) this.finish(exchange);
    if (exchange.mode === "sse") {
      await exchange.stream?.send(payload as Frame);
      if (finished) await exchange.stream?.end();
      return;
    }
    exchange.collected.push(...responses);
    if (!finished || exchange.response.writableEnded || exchange.response.destroyed) return;
    exchange.response.end(
      JSON.stringify(exchange.isBatch ? exchange.collected : exchange.collected[0]),
    );
  }

  private finish(exchange: Exchange): void {
    exchange.done = true;
    this.exchanges.delete(exchange);
    for (const token of exchange.progressTokens) {
      if (this.progressRoutes.get(token) === exchange) this.progressRoutes.delete(token);
    }
    if (this.sessionId === undefined && this.exchanges.size === 0) {
      // Stateless: the transport lives for one POST; it ends once that POST is answered.
      queueMicrotask(() => this.end({ initiator: "remote", details: { reason: "answered" } }));
    }
  }

  private abandon(exchange: Exchange): void {
    exchange.done = true;
    if (exchange.stream !== undefined) void exchange.stream.end();
    // A JSON answer already promised 200: breaking it off is the honest signal.
    else exchange.response.destroy();
  }

  /**
   * Keeps the ids of the most recent POST streams only (resumable ones), so that a long session
   * does not grow without bound; their events are forgotten too.
   */
  private forgetOldStreams(): void {
    const excess = this.ownStreamIds.size - 1 - MAX_RESUMABLE_POST_STREAMS;
    if (excess <= 0) return;
    let removed = 0;
    for (const streamId of this.ownStreamIds) {
      if (removed === excess) break;
      if (streamId === this.standaloneStreamId) continue;
      if ([...this.exchanges].some((exchange) => exchange.streamId === streamId)) continue;
      this.ownStreamIds.delete(streamId);
      this.settings.eventStore?.forgetStream?.(streamId);
      removed++;
    }
  }

  private armIdleTimer(delayMs: number): void {
    this.idleTimer = this.settings.clock.setTimeout(() => {
      this.idleTimer = undefined;
      if (this.events.closed) return;
      const busy = this.hasStandaloneStream || this.exchanges.size > 0;
      const idleFor = this.settings.clock.now() - this.lastActivity;
      if (!busy && idleFor >= this.idleTimeoutMs) {
        this.end({ initiator: "remote", details: { reason: "idle-timeout" } });
        return;
      }
      this.armIdleTimer(busy ? this.idleTimeoutMs : this.idleTimeoutMs - idleFor);
    }, delayMs);
  }
}
