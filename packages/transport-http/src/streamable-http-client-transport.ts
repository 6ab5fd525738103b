import {
  decode,
  type Frame,
  type FrameInfo,
  InvalidFrameError,
  isJSONRPCRequest,
  type JSONRPCId,
  type JSONRPCMessage,
  messagesOf,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { ClientSseStreams } from "./client-sse-streams.js";
import { type Clock, systemClock } from "./clock.js";
import { MCP_PROTOCOL_VERSION_HEADER, MCP_SESSION_ID_HEADER } from "./constants.js";
import { HttpStatusError, SessionExpiredError } from "./http-errors.js";
import { idKey } from "./message-keys.js";
import {
  cancelledRequestKey,
  isErrorResponseTo,
  type ModernRequestFacts,
  modernRequestHeaders,
  modernRequestOf,
} from "./modern-client-requests.js";
import {
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_RESPONSE_BODY_BYTES,
  ResponseTooLargeError,
  readTextLimited,
} from "./response-limits.js";
import type {
  FetchLike,
  StreamableHttpClientTransportOptions,
} from "./streamable-http-client-options.js";
import { toError } from "./to-error.js";
import { ToolParamHeaders } from "./tool-param-headers.js";

export type {
  FetchLike,
  ReconnectOptions,
  StreamableHttpClientTransportOptions,
} from "./streamable-http-client-options.js";

/** The reason a POST's signal is aborted with once its exchange is over (no error is made for it). */
const EXCHANGE_OVER = Object.freeze({ reason: "the exchange is over" });

/**
 * The client side of Streamable HTTP (MCP 2025-03-26 … 2025-11-25): every frame is a POST; answers
 * come back as JSON or SSE; server-initiated messages come on a standalone GET stream; broken SSE
 * streams are resumed with `Last-Event-ID` after the server's `retry:` delay; `close()` sends DELETE.
 * A modern request (2026-07-28: its `_meta` names the revision) goes out in the modern shape:
 * `Mcp-Method`/`Mcp-Name` headers, no session id, its JSON-RPC error delivered from a 4xx body, and
 * `notifications/cancelled` for it closes its response stream instead of being sent.
 */
export class StreamableHttpClientTransport implements Transport {
  /** Every POST is answered (an unknown request with an HTTP error): see `Transport`. */
  readonly answersEveryRequest = true;
  private readonly options: StreamableHttpClientTransportOptions;
  private readonly url: URL;
  private readonly fetch: FetchLike;
  private readonly clock: Clock;
  private readonly maxBodyBytes: number;
  private readonly events = new TransportEvents();
  /** Aborts the SSE streams (GET streams, and POST answers being read) when the transport closes. */
  private readonly abort = new AbortController();
  /**
   * One controller per POST whose answer is still coming, aborted on close: each POST has a signal
   * of its own, since thousands of them listening to one shared signal made every request's
   * `addEventListener` and `removeEventListener` walk all the others' listeners.
   */
  private readonly inFlight = new Set<AbortController>();
  private readonly initializeIds = new Set<string>();
  private readonly streams: ClientSseStreams;
  /** The request each one-request POST's SSE answer belongs to (reported as `relatedRequestId`). */
  private readonly relatedByAnswer = new WeakMap<Set<string>, JSONRPCId>();
  /** Modern requests whose answer is still coming, by id key: closing one is its cancellation. */
  private readonly modernAnswers = new Map<
    string,
    { controller: AbortController; pending?: Set<string> }
  >();
  /** The `x-mcp-header` parameters of the tools modern `tools/list` answers named. */
  private readonly paramHeaders: ToolParamHeaders;
  private currentSessionId: string | undefined;
  private currentProtocolVersion: string | undefined;
  private standaloneOpen = false;
  private closing = false;

  constructor(options: StreamableHttpClientTransportOptions) {
    this.options = options;
    this.url = new URL(options.url);
    this.fetch = noRedirects(options.fetch ?? ((input, init) => fetch(input, init)));
    this.maxBodyBytes = options.maxResponseBodyBytes ?? DEFAULT_MAX_RESPONSE_BODY_BYTES;
    this.clock = options.clock ?? systemClock;
    this.currentSessionId = options.sessionId;
    this.currentProtocolVersion = options.protocolVersion;
    this.paramHeaders = new ToolParamHeaders(
      options.onWarning ?? ((text) => console.warn(`Streamable HTTP client: ${text}`)),
    );
    this.streams = new ClientSseStreams({
      url: this.url,
      fetch: this.fetch,
      clock: this.clock,
      reconnect: options.reconnect ?? {},
      maxEventBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
      maxBodyBytes: this.maxBodyBytes,
      signal: this.abort.signal,
      isClosed: () => this.events.closed || this.closing,
      headers: (base) => this.headers(base),
      receive: (text, pending) => this.receive(text, pending),
      reportError: (error) => this.events.emitError(error),
      expireSession: (body) => {
        if (this.currentSessionId === undefined) return false;
        this.expire(new SessionExpiredError(this.currentSessionId, body));
        return true;
      },
      standaloneGone: () => {
        this.standaloneOpen = false;
      },
    });
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
    const cancelKey = cancelledRequestKey(messages);
    const cancelled = cancelKey === undefined ? undefined : this.modernAnswers.get(cancelKey);
    if (cancelKey !== undefined && cancelled !== undefined) {
      // 2026-07-28 Streamable HTTP: a request is cancelled by closing its response stream.
      this.modernAnswers.delete(cancelKey);
      cancelled.pending?.clear();
      cancelled.controller.abort();
      return;
    }
    const modern = modernRequestOf(messages);
    const modernKey = modern?.id === undefined ? undefined : idKey(modern.id);
    const controller = new AbortController();
    this.inFlight.add(controller);
    const tracked: { controller: AbortController; pending?: Set<string> } | undefined =
      modernKey === undefined ? undefined : { controller };
    if (modernKey !== undefined && tracked !== undefined)
      this.modernAnswers.set(modernKey, tracked);
    if (modernKey !== undefined && modern?.method === "tools/list") {
      this.paramHeaders.listing(modernKey);
    }
    const answered = () => {
      this.inFlight.delete(controller);
      if (modernKey !== undefined) this.modernAnswers.delete(modernKey);
      // The exchange is over. Aborting its signal now lets fetch drop what it registered for it at
      // once (undici keeps each request's signal and abort listener in a FinalizationRegistry until
      // the request is collected and the registry's cleanup runs, some time after a collection).
      controller.abort(EXCHANGE_OVER);
    };
    for (const message of messages) {
      if (isJSONRPCRequest(message) && message.method === "initialize" && message.id !== null) {
        this.initializeIds.add(idKey(message.id));
      }
    }
    const sentSessionId = modern === undefined ? this.currentSessionId : undefined;
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: "POST",
        headers: await this.headers(
          { accept: "application/json, text/event-stream", "content-type": "application/json" },
          modern,
        ),
        body: JSON.stringify(frame),
        signal: controller.signal,
      });
    } catch (error) {
      // Aborted by close() or by cancelling a modern request: the close or cancel tells the rest.
      const aborted = this.closing || controller.signal.aborted;
      answered();
      if (aborted) return;
      throw new TransportError(`POST ${this.url.href} failed`, { cause: error });
    }
    const sessionId = response.headers.get(MCP_SESSION_ID_HEADER);
    if (sessionId !== null && response.ok) this.currentSessionId = sessionId;

    if (!response.ok) {
      const body = await readTextLimited(response, this.maxBodyBytes).catch(() => "");
      answered();
      if (modern?.id !== undefined && isErrorResponseTo(body, modern.id)) {
        this.receive(body);
        return;
      }
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
      try {
        await response.body?.cancel();
      } finally {
        answered();
      }
      if (messages.some(isInitializedNotification)) this.openStandaloneSoon();
      return;
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (contentType.includes("text/event-stream")) {
      const pending = new Set<string>();
      const requestIds: JSONRPCId[] = [];
      for (const message of messages) {
        if ("method" in message && "id" in message) {
          pending.add(idKey(message.id));
          requestIds.push(message.id);
        }
      }
      // What the server sends on the answer of a one-request POST belongs to that request.
      if (requestIds.length === 1) this.relatedByAnswer.set(pending, requestIds[0] as JSONRPCId);
      if (tracked !== undefined) tracked.pending = pending;
      void this.streams.readAnswer(response, pending).finally(answered);
      return;
    }
    if (contentType.includes("application/json")) {
      // Read in the background: a server may send the headers long before the answer is ready.
      void readTextLimited(response, this.maxBodyBytes).then(
        (text) => {
          answered();
          this.receive(text);
        },
        (error: unknown) => {
          const aborted = this.closing || controller.signal.aborted;
          answered();
          if (aborted) return;
          if (error instanceof ResponseTooLargeError) this.events.emitError(error);
          else this.events.emitError(new TransportError("JSON answer broke off", { cause: error }));
        },
      );
      return;
    }
    await response.body.cancel().finally(answered);
    throw new TransportError(
      `POST ${this.url.href} answered unexpected content type ${contentType}`,
    );
  }

  /** Opens the standalone GET stream now (normally done after `notifications/initialized`). */
  async openStandaloneStream(): Promise<void> {
    if (this.standaloneOpen || this.events.closed || this.closing) return;
    this.standaloneOpen = true;
    await this.streams.openStandalone();
  }

  async close(): Promise<void> {
    if (this.events.closed || this.closing) return;
    this.closing = true;
    this.streams.stop();
    this.abortAll();
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

  /** Ends every stream and POST in flight (close, or the session expired). */
  private abortAll(): void {
    this.abort.abort();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }

  /**
   * The server no longer knows the session (MCP transports: 404 ⇒ the client MUST start a new
   * session): the error is reported and the transport closes as ended by the remote side.
   */
  private expire(error: SessionExpiredError): void {
    if (this.events.closed) return;
    this.currentSessionId = undefined;
    this.closing = true;
    this.streams.stop();
    this.abortAll();
    this.events.emitError(error);
    this.events.emitClose({ initiator: "remote", error });
  }

  private async headers(
    base: Record<string, string>,
    modern?: ModernRequestFacts,
  ): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...this.options.headers, ...base };
    if (this.options.authHeaders !== undefined)
      Object.assign(headers, await this.options.authHeaders());
    // 2026-07-28: no session; the request names its revision, method and target in headers.
    if (modern !== undefined) {
      Object.assign(headers, modernRequestHeaders(modern));
      if (modern.method === "tools/call" && modern.name !== undefined) {
        Object.assign(headers, this.paramHeaders.headersFor(modern.name, modern.arguments));
      }
      return headers;
    }
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
    const related = pending === undefined ? undefined : this.relatedByAnswer.get(pending);
    this.events.emitFrame(
      decoded.frame,
      related === undefined ? {} : { relatedRequestId: related },
    );
  }

  /** Learns the negotiated revision from an initialize result passing through. */
  private observe(message: JSONRPCMessage, pending: Set<string> | undefined): void {
    if ("method" in message || message.id === null) return;
    const key = idKey(message.id);
    pending?.delete(key);
    this.paramHeaders.observe(message, key);
    if (!this.initializeIds.delete(key) || !("result" in message)) return;
    const version = (message.result as { protocolVersion?: unknown } | null)?.protocolVersion;
    if (typeof version === "string") this.currentProtocolVersion = version;
  }
}

function isInitializedNotification(message: JSONRPCMessage): boolean {
  return (
    "method" in message && message.method === "notifications/initialized" && !("id" in message)
  );
}

/**
 * Refuses redirects: a redirect to another origin would carry the custom credential headers
 * (`x-api-key`, `Authorization` from `headers`/`authHeaders`) there, which fetch does not strip.
 * A redirected request fails with a TransportError instead.
 */
export function noRedirects(fetchFunction: FetchLike): FetchLike {
  return (input, init) => fetchFunction(input, { ...init, redirect: "error" });
}
