import {
  decode,
  type Frame,
  type FrameInfo,
  InvalidFrameError,
  type JSONRPCMessage,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { type Clock, systemClock } from "./clock.js";
import {
  LAST_EVENT_ID_HEADER,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
} from "./constants.js";
import { HttpStatusError, SessionExpiredError } from "./http-errors.js";
import { idKey, isInitializeRequest, messagesOf } from "./message-keys.js";
import { readSseBody } from "./read-sse-body.js";
import type { SseEvent } from "./sse-event.js";
import { TransportEvents, toError } from "./transport-events.js";

/** The fetch function a client transport uses (the global `fetch` by default). */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** How a client reconnects a broken SSE stream. */
export interface ReconnectOptions {
  /** First delay when the server gave no `retry:` advice. Default 1000 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound of the delay. Default 30 000 ms. */
  readonly maxDelayMs?: number;
  /** Growth of the delay per failed attempt. Default 1.5. */
  readonly growFactor?: number;
  /** Attempts in a row before giving up on a stream. Default 5. */
  readonly maxRetries?: number;
}

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions {
  /** The MCP endpoint URL. */
  readonly url: string | URL;
  /** The fetch to use. Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Headers sent with every request (for example a static `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called before every request; the headers it returns are added (for example a fresh token). */
  readonly authHeaders?: () =>
    | Readonly<Record<string, string>>
    | Promise<Readonly<Record<string, string>>>;
  /** A session id to resume with (otherwise learnt from the initialize answer). */
  readonly sessionId?: string;
  /** The negotiated revision (otherwise learnt from the initialize result passing through). */
  readonly protocolVersion?: string;
  /**
   * Open the standalone GET stream once `notifications/initialized` was accepted (default true). A
   * server answering 405 simply has none.
   */
  readonly standaloneStream?: boolean;
  /** Reconnection of broken SSE streams (with `Last-Event-ID`). */
  readonly reconnect?: ReconnectOptions;
  /** Timers for reconnection delays. Default: the system clock. */
  readonly clock?: Clock;
}

interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  attempts: number;
}

/**
 * The client side of Streamable HTTP (MCP 2025-03-26 … 2025-11-25): every frame is a POST; answers
 * come back as JSON or SSE; server-initiated messages come on a standalone GET stream; broken SSE
 * streams are resumed with `Last-Event-ID` after the server's `retry:` delay; `close()` sends DELETE.
 */
export class StreamableHttpClientTransport implements Transport {
  private readonly options: StreamableHttpClientTransportOptions;
  private readonly url: URL;
  private readonly fetch: FetchLike;
  private readonly clock: Clock;
  private readonly events = new TransportEvents();
  private readonly abort = new AbortController();
  private readonly initializeIds = new Set<string>();
  private readonly timers = new Set<unknown>();
  private currentSessionId: string | undefined;
  private currentProtocolVersion: string | undefined;
  private standaloneOpen = false;
  private closing = false;

  constructor(options: StreamableHttpClientTransportOptions) {
    this.options = options;
    this.url = new URL(options.url);
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.clock = options.clock ?? systemClock;
    this.currentSessionId = options.sessionId;
    this.currentProtocolVersion = options.protocolVersion;
  }

  /** The session id the server assigned (sent as `Mcp-Session-Id`), if any. */
  get sessionId(): string | undefined {
    return this.currentSessionId;
  }

  /** The revision sent as `MCP-Protocol-Version`, if known. */
  get protocolVersion(): string | undefined {
    return this.currentProtocolVersion;
  }

  /** Sets the revision sent as `MCP-Protocol-Version` (when not learnt from the initialize result). */
  setProtocolVersion(version: string): void {
    this.currentProtocolVersion = version;
  }

  async start(): Promise<void> {
    this.events.start();
  }

  async send(frame: Frame): Promise<void> {
    if (this.events.closed || this.closing) {
      throw new TransportError("Streamable HTTP client transport is closed");
    }
    const messages = messagesOf(frame);
    for (const message of messages) {
      if (isInitializeRequest(message) && "id" in message && message.id !== null) {
        this.initializeIds.add(idKey(message.id));
      }
    }
    const sentSessionId = this.currentSessionId;
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: "POST",
        headers: await this.headers({
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
        }),
        body: JSON.stringify(frame),
        signal: this.abort.signal,
      });
    } catch (error) {
      // Aborted by close(): the frame was handed over; the close event tells the rest.
      if (this.closing) return;
      throw new TransportError(`POST ${this.url.href} failed`, { cause: error });
    }
    const sessionId = response.headers.get(MCP_SESSION_ID_HEADER);
    if (sessionId !== null && response.ok) this.currentSessionId = sessionId;

    if (!response.ok) {
      const body = await response.text().catch(() => "");
      if (response.status === 404 && sentSessionId !== undefined) {
        const error = new SessionExpiredError(sentSessionId, body);
        this.expire(error);
        throw error;
      }
      throw new HttpStatusError(
        `POST ${this.url.href} answered HTTP ${response.status}${body === "" ? "" : `: ${body}`}`,
        {
          status: response.status,
          body,
          wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
        },
      );
    }
    if (response.status === 202 || response.body === null) {
      await response.body?.cancel();
      if (messages.some(isInitializedNotification)) this.openStandaloneSoon();
      return;
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (contentType.includes("text/event-stream")) {
      const pending = new Set<string>();
      for (const message of messages) {
        if ("method" in message && "id" in message) pending.add(idKey(message.id));
      }
      void this.readStream(
        response,
        { lastEventId: undefined, retryMs: undefined, attempts: 0 },
        pending,
      );
      return;
    }
    if (contentType.includes("application/json")) {
      // Read in the background: a server may send the headers long before the answer is ready.
      void response.text().then(
        (text) => this.receive(text),
        (error: unknown) => {
          if (this.closing) return;
          this.events.emitError(new TransportError("JSON answer broke off", { cause: error }));
        },
      );
      return;
    }
    await response.body.cancel();
    throw new TransportError(
      `POST ${this.url.href} answered unexpected content type ${contentType}`,
    );
  }

  /** Opens the standalone GET stream now (normally done after `notifications/initialized`). */
  async openStandaloneStream(): Promise<void> {
    if (this.standaloneOpen || this.events.closed || this.closing) return;
    this.standaloneOpen = true;
    await this.getStream({ lastEventId: undefined, retryMs: undefined, attempts: 0 }, undefined);
  }

  async close(): Promise<void> {
    if (this.events.closed || this.closing) return;
    this.closing = true;
    for (const timer of this.timers) this.clock.clearTimeout(timer);
    this.timers.clear();
    this.abort.abort();
    const sessionId = this.currentSessionId;
    if (sessionId !== undefined) {
      try {
        const response = await this.fetch(this.url, {
          method: "DELETE",
          headers: await this.headers({}),
        });
        await response.body?.cancel();
      } catch {
        // The session ends on the server's idle timeout anyway.
      }
    }
    this.events.emitClose({ initiator: "local" });
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
   * The server no longer knows the session (MCP transports: 404 ⇒ the client MUST start a new
   * session): the error is reported and the transport closes as ended by the remote side.
   */
  private expire(error: SessionExpiredError): void {
    if (this.events.closed) return;
    this.currentSessionId = undefined;
    this.closing = true;
    for (const timer of this.timers) this.clock.clearTimeout(timer);
    this.timers.clear();
    this.abort.abort();
    this.events.emitError(error);
    this.events.emitClose({ initiator: "remote", error });
  }

  private async headers(base: Record<string, string>): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...this.options.headers, ...base };
    if (this.options.authHeaders !== undefined)
      Object.assign(headers, await this.options.authHeaders());
    if (this.currentSessionId !== undefined) headers[MCP_SESSION_ID_HEADER] = this.currentSessionId;
    if (this.currentProtocolVersion !== undefined) {
      headers[MCP_PROTOCOL_VERSION_HEADER] = this.currentProtocolVersion;
    }
    return headers;
  }

  private openStandaloneSoon(): void {
    if (this.options.standaloneStream === false) return;
    void this.openStandaloneStream().catch((error) => this.events.emitError(toError(error)));
  }

  /** Decodes one JSON text (a body or an SSE data field) and delivers it. */
  private receive(text: string, pending?: Set<string>): void {
    const decoded = decode(text);
    if (!decoded.ok) {
      this.events.emitError(
        new InvalidFrameError("Server sent invalid JSON-RPC", decoded.response),
      );
      return;
    }
    for (const message of messagesOf(decoded.frame)) this.observe(message, pending);
    this.events.emitFrame(decoded.frame, {});
  }

  /** Learns the negotiated revision from an initialize result passing through. */
  private observe(message: JSONRPCMessage, pending: Set<string> | undefined): void {
    if ("method" in message || message.id === null) return;
    const key = idKey(message.id);
    pending?.delete(key);
    if (!this.initializeIds.delete(key) || !("result" in message)) return;
    const version = (message.result as { protocolVersion?: unknown } | null)?.protocolVersion;
    if (typeof version === "string") this.currentProtocolVersion = version;
  }

  /**
   * Reads an SSE answer; when it breaks before every awaited response arrived, resumes it with GET
   * and `Last-Event-ID` (`pending` undefined means the standalone stream, which always resumes).
   */
  private async readStream(
    response: Response,
    state: StreamState,
    pending: Set<string> | undefined,
  ): Promise<void> {
    let failure: unknown;
    try {
      await readSseBody(response.body as ReadableStream<Uint8Array>, {
        onEvent: (event: SseEvent) => {
          if (event.id !== undefined) state.lastEventId = event.id;
          if (event.retry !== undefined) state.retryMs = event.retry;
          if ((event.event === undefined || event.event === "message") && event.data !== "") {
            this.receive(event.data, pending);
          }
        },
      });
    } catch (error) {
      failure = error;
    }
    if (this.events.closed || this.closing) return;
    if (pending !== undefined && pending.size === 0) return;
    if (pending !== undefined && state.lastEventId === undefined) {
      this.events.emitError(
        new TransportError("SSE answer ended before every response arrived and cannot be resumed", {
          cause: failure,
        }),
      );
      return;
    }
    this.scheduleReconnect(state, pending);
  }

  private scheduleReconnect(state: StreamState, pending: Set<string> | undefined): void {
    const reconnect = this.options.reconnect ?? {};
    const maxRetries = reconnect.maxRetries ?? 5;
    if (state.attempts >= maxRetries) {
      if (pending === undefined) this.standaloneOpen = false;
      this.events.emitError(
        new TransportError(`Gave up reconnecting an SSE stream after ${state.attempts} attempts`),
      );
      return;
    }
    const initial = reconnect.initialDelayMs ?? 1000;
    const delay =
      state.retryMs ??
      Math.min(
        initial * (reconnect.growFactor ?? 1.5) ** state.attempts,
        reconnect.maxDelayMs ?? 30_000,
      );
    state.attempts += 1;
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      void this.getStream(state, pending).catch((error) => this.events.emitError(toError(error)));
    }, delay);
    this.timers.add(timer);
  }

  /** GETs a stream: the standalone one, or the resumption of a POST's answer. */
  private async getStream(state: StreamState, pending: Set<string> | undefined): Promise<void> {
    if (this.events.closed || this.closing) return;
    const base: Record<string, string> = { accept: "text/event-stream" };
    if (state.lastEventId !== undefined) base[LAST_EVENT_ID_HEADER] = state.lastEventId;
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: "GET",
        headers: await this.headers(base),
        signal: this.abort.signal,
      });
    } catch (error) {
      if (this.events.closed || this.closing) return;
      this.events.emitError(new TransportError("SSE GET failed", { cause: error }));
      this.scheduleReconnect(state, pending);
      return;
    }
    if (response.status === 405 && pending === undefined) {
      // The server offers no standalone stream (MCP transports: GET MAY answer 405).
      await response.body?.cancel();
      return;
    }
    if (!response.ok || response.body === null) {
      const body = await response.text().catch(() => "");
      if (response.status === 404 && this.currentSessionId !== undefined) {
        this.expire(new SessionExpiredError(this.currentSessionId, body));
        return;
      }
      this.events.emitError(
        new HttpStatusError(`GET ${this.url.href} answered HTTP ${response.status}`, {
          status: response.status,
          body,
        }),
      );
      if (pending === undefined) this.standaloneOpen = false;
      return;
    }
    state.attempts = 0;
    await this.readStream(response, state, pending);
  }
}

function isInitializedNotification(message: JSONRPCMessage): boolean {
  return (
    "method" in message && message.method === "notifications/initialized" && !("id" in message)
  );
}
