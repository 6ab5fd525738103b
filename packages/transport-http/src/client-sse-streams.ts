import { TransportError } from "@patchbay/jsonrpc-core";
import type { Clock, TimerHandle } from "./clock.js";
import { LAST_EVENT_ID_HEADER } from "./constants.js";
import { HttpStatusError } from "./http-errors.js";
import { readSseBody } from "./read-sse-body.js";
import { limitSseEvents, ResponseTooLargeError, readTextLimited } from "./response-limits.js";
import type { SseEvent } from "./sse-event.js";
import {
  type FetchLike,
  type ReconnectOptions,
  reconnectDelay,
} from "./streamable-http-client-options.js";
import { toError } from "./to-error.js";

/** What the client transport lends its stream reader. */
export interface StreamHost {
  readonly url: URL;
  readonly fetch: FetchLike;
  readonly clock: Clock;
  readonly reconnect: ReconnectOptions;
  readonly signal: AbortSignal;
  /** Most bytes of one SSE event. */
  readonly maxEventBytes: number;
  /** Most bytes of an error body read whole. */
  readonly maxBodyBytes: number;
  /** True once the transport is closing or closed: no more reading or reconnecting. */
  isClosed(): boolean;
  /** The headers of every request (auth, session, revision) over `base`. */
  headers(base: Record<string, string>): Promise<Record<string, string>>;
  /** Delivers one message event's data; removes answered ids from `pending`. */
  receive(text: string, pending: Set<string> | undefined): void;
  /** Reports a non-fatal error. */
  reportError(error: Error): void;
  /** Handles a 404 on the session; returns false when there was no session to expire. */
  expireSession(body: string): boolean;
  /** The standalone stream is gone for good (until opened again). */
  standaloneGone(): void;
}

interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  attempts: number;
}

/**
 * Reads the client's SSE streams: POST answers and the standalone GET stream. A POST answer that
 * breaks before every awaited response arrived, and the GET stream whenever it ends, are resumed
 * with GET and `Last-Event-ID` after the server's `retry:` advice (or a growing delay).
 */
export class ClientSseStreams {
  private readonly host: StreamHost;
  private readonly timers = new Set<TimerHandle>();

  constructor(host: StreamHost) {
    this.host = host;
  }

  /** Reads a POST's SSE answer awaiting the responses whose keys are in `pending`. */
  readAnswer(response: Response, pending: Set<string>): Promise<void> {
    return this.read(response, newState(), pending);
  }

  /** Opens the standalone GET stream. */
  openStandalone(): Promise<void> {
    return this.get(newState(), undefined);
  }

  /** Cancels every pending reconnection. */
  stop(): void {
    for (const timer of this.timers) this.host.clock.clearTimeout(timer);
    this.timers.clear();
  }

  private async read(
    response: Response,
    state: StreamState,
    pending: Set<string> | undefined,
  ): Promise<void> {
    let failure: unknown;
    try {
      const body = limitSseEvents(
        response.body as ReadableStream<Uint8Array>,
        this.host.maxEventBytes,
      );
      await readSseBody(
        body,
        {
          onEvent: (event: SseEvent) => {
            if (event.id !== undefined) state.lastEventId = event.id;
            if ((event.event === undefined || event.event === "message") && event.data !== "") {
              this.host.receive(event.data, pending);
            }
          },
          onRetry: (retryMs) => {
            state.retryMs = retryMs;
          },
        },
        // The bytes were counted above; the parser's own bound must not be the lower one.
        { maxEventSize: this.host.maxEventBytes },
      );
    } catch (error) {
      failure = error;
    }
    if (this.host.isClosed()) return;
    if (failure instanceof ResponseTooLargeError) {
      // Resuming would replay the same event: the stream is given up, with the limit named.
      this.host.reportError(failure);
      if (pending === undefined) this.host.standaloneGone();
      return;
    }
    if (pending !== undefined && pending.size === 0) return;
    if (pending !== undefined && state.lastEventId === undefined) {
      this.host.reportError(
        new TransportError("SSE answer ended before every response arrived and cannot be resumed", {
          cause: failure,
        }),
      );
      return;
    }
    this.scheduleReconnect(state, pending);
  }

  private scheduleReconnect(state: StreamState, pending: Set<string> | undefined): void {
    const maxRetries = this.host.reconnect.maxRetries ?? 5;
    if (state.attempts >= maxRetries) {
      if (pending === undefined) this.host.standaloneGone();
      this.host.reportError(
        new TransportError(`Gave up reconnecting an SSE stream after ${state.attempts} attempts`),
      );
      return;
    }
    const delay = reconnectDelay(this.host.reconnect, state.attempts, state.retryMs);
    state.attempts += 1;
    const timer = this.host.clock.setTimeout(() => {
      this.timers.delete(timer);
      void this.get(state, pending).catch((error) => this.host.reportError(toError(error)));
    }, delay);
    this.timers.add(timer);
  }

  /** GETs a stream: the standalone one, or the resumption of a POST's answer. */
  private async get(state: StreamState, pending: Set<string> | undefined): Promise<void> {
    if (this.host.isClosed()) return;
    const base: Record<string, string> = { accept: "text/event-stream" };
    if (state.lastEventId !== undefined) base[LAST_EVENT_ID_HEADER] = state.lastEventId;
    let response: Response;
    try {
      response = await this.host.fetch(this.host.url, {
        method: "GET",
        headers: await this.host.headers(base),
        signal: this.host.signal,
      });
    } catch (error) {
      if (this.host.isClosed()) return;
      this.host.reportError(new TransportError("SSE GET failed", { cause: error }));
      this.scheduleReconnect(state, pending);
      return;
    }
    if (response.status === 405 && pending === undefined) {
      // The server offers no standalone stream (MCP transports: GET MAY answer 405).
      await response.body?.cancel();
      this.host.standaloneGone();
      return;
    }
    if (!response.ok || response.body === null) {
      const body = await readTextLimited(response, this.host.maxBodyBytes).catch(() => "");
      if (response.status === 404 && this.host.expireSession(body)) return;
      this.host.reportError(
        new HttpStatusError(`GET ${this.host.url.href} answered HTTP ${response.status}`, {
          status: response.status,
          body,
        }),
      );
      if (pending === undefined) this.host.standaloneGone();
      return;
    }
    state.attempts = 0;
    await this.read(response, state, pending);
  }
}

function newState(): StreamState {
  return { lastEventId: undefined, retryMs: undefined, attempts: 0 };
}
