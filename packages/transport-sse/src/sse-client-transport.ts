import {
  decode,
  type Frame,
  type FrameInfo,
  InvalidFrameError,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import {
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_RESPONSE_BODY_BYTES,
  type FetchLike,
  HttpStatusError,
  limitSseEvents,
  noRedirects,
  readSseBody,
  readTextLimited,
  type SseEvent,
} from "@patchbay/transport-http/client";
/** Options of {@link SseClientTransport}. */
export interface SseClientTransportOptions {
  /** The SSE stream URL (e.g. `http://127.0.0.1:3000/sse`). */
  readonly url: string | URL;
  /** The fetch to use for the stream and the POSTs. Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Headers sent with the stream request and every POST. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called before every request; the headers it returns are added (for example a fresh token). */
  readonly authHeaders?: () =>
    | Readonly<Record<string, string>>
    | Promise<Readonly<Record<string, string>>>;
  /** Most bytes of a POST's answer body read whole. Default 32 MiB. */
  readonly maxResponseBodyBytes?: number;
  /** Most bytes of one SSE event; a larger one ends the session with an error naming it. Default 16 MiB. */
  readonly maxEventBytes?: number;
}

/**
 * The client side of the legacy HTTP+SSE transport (MCP 2024-11-05), on fetch and the SSE reading
 * of `@patchbay/transport-http/client` (no Node built-in, no EventSource): `start()` opens the
 * stream and resolves once the `endpoint` event names the POST URL; frames go out as POSTs;
 * `message` events come in as frames. A legacy session lives exactly as long as its stream, so the
 * transport closes (initiator `remote`) when the stream ends or fails instead of reconnecting into
 * a new session.
 */
export class SseClientTransport implements Transport {
  private readonly options: SseClientTransportOptions;
  private readonly url: URL;
  private readonly fetch: FetchLike;
  private readonly events = new TransportEvents();
  /** Aborts the stream request and its reading. */
  private readonly abort = new AbortController();
  private endpoint: URL | undefined;
  private starting: Promise<void> | undefined;

  constructor(options: SseClientTransportOptions) {
    this.options = options;
    this.url = new URL(options.url);
    // Redirects are refused: one to another origin would carry custom credential headers there.
    this.fetch = noRedirects(options.fetch ?? ((input, init) => fetch(input, init)));
  }

  /** The POST URL announced by the server, once started. */
  get endpointUrl(): URL | undefined {
    return this.endpoint;
  }

  /** Opens the stream; resolves once the server announced its endpoint. Idempotent. */
  start(): Promise<void> {
    this.starting ??= this.open().then(() => this.events.start());
    return this.starting;
  }

  async send(frame: Frame): Promise<void> {
    if (this.events.closed) throw new TransportError("SSE client transport is closed");
    const endpoint = this.endpoint;
    if (endpoint === undefined) throw new TransportError("SSE client transport is not started");
    let response: Response;
    try {
      response = await this.fetch(endpoint, {
        method: "POST",
        headers: { ...(await this.headers()), "content-type": "application/json" },
        body: JSON.stringify(frame),
      });
    } catch (error) {
      throw new TransportError(`POST ${endpoint.href} failed`, { cause: error });
    }
    const maxBodyBytes = this.options.maxResponseBodyBytes ?? DEFAULT_MAX_RESPONSE_BODY_BYTES;
    const body = await readTextLimited(response, maxBodyBytes).catch(() => "");
    if (!response.ok) {
      throw new HttpStatusError(`POST ${endpoint.href} answered HTTP ${response.status}: ${body}`, {
        status: response.status,
        body,
        wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
      });
    }
  }

  async close(): Promise<void> {
    this.finish({ initiator: "local" });
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

  private async headers(): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...this.options.headers };
    if (this.options.authHeaders !== undefined) {
      Object.assign(headers, await this.options.authHeaders());
    }
    return headers;
  }

  private async open(): Promise<void> {
    if (this.events.closed) throw new TransportError("SSE client transport is closed");
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: "GET",
        headers: { ...(await this.headers()), accept: "text/event-stream" },
        signal: this.abort.signal,
      });
    } catch (error) {
      throw new TransportError(`SSE stream ${this.url.href} failed`, { cause: error });
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (!response.ok || response.body === null || !contentType.includes("text/event-stream")) {
      const maxBodyBytes = this.options.maxResponseBodyBytes ?? DEFAULT_MAX_RESPONSE_BODY_BYTES;
      const body = await readTextLimited(response, maxBodyBytes).catch(() => "");
      if (!response.ok) {
        throw new HttpStatusError(`GET ${this.url.href} answered HTTP ${response.status}`, {
          status: response.status,
          body,
          wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
        });
      }
      throw new TransportError(`GET ${this.url.href} answered content type ${contentType}`);
    }
    const stream = response.body;
    await new Promise<void>((resolve, reject) => {
      void this.read(stream, resolve).then((error) => {
        if (this.endpoint === undefined) {
          this.abort.abort();
          reject(error);
        } else this.fail(error);
      });
    });
  }

  /**
   * Reads the stream until it ends; `announced` is called once the endpoint is known. Resolves
   * with the error that ends the session (a legacy session lives as long as its stream).
   */
  private async read(stream: ReadableStream<Uint8Array>, announced: () => void): Promise<Error> {
    const maxEventBytes = this.options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    const onEvent = (event: SseEvent) => {
      if (event.event === "endpoint") {
        if (this.endpoint === undefined) this.acceptEndpoint(event.data);
        if (this.endpoint !== undefined) announced();
      } else if (event.event === undefined || event.event === "message") {
        this.receive(event.data);
      }
    };
    try {
      const body = limitSseEvents(stream, maxEventBytes);
      await readSseBody(body, { onEvent }, { maxEventSize: maxEventBytes });
      return new TransportError(`SSE stream ${this.url.href} ended`);
    } catch (error) {
      // A ResponseTooLargeError (a TransportError) or a refused endpoint ends the session as is.
      if (TransportError.isInstance(error)) return error as Error;
      return new TransportError(`SSE stream ${this.url.href} failed`, { cause: error });
    }
  }

  /** Takes the announced POST URL, which must be on the stream's origin; fails the session if not. */
  private acceptEndpoint(data: string): void {
    let endpoint: URL;
    try {
      endpoint = new URL(data, this.url);
    } catch (error) {
      throw new TransportError(`Invalid endpoint event: ${data}`, { cause: error });
    }
    // The POST target must be the stream's origin: a server must not send our frames elsewhere.
    if (endpoint.origin !== this.url.origin) {
      throw new TransportError(
        `Endpoint origin ${endpoint.origin} differs from ${this.url.origin}`,
      );
    }
    this.endpoint = endpoint;
  }

  private receive(data: string): void {
    const decoded = decode(data);
    if (!decoded.ok) {
      this.events.emitError(
        new InvalidFrameError("Server sent invalid JSON-RPC", decoded.response),
      );
      return;
    }
    this.events.emitFrame(
      decoded.frame,
      decoded.rejected.length > 0 ? { rejected: decoded.rejected } : {},
    );
  }

  private fail(error: Error): void {
    if (this.events.closed) return;
    this.events.emitError(error);
    this.finish({ initiator: "remote", error });
  }

  private finish(event: TransportCloseEvent): void {
    this.abort.abort();
    this.events.emitClose(event);
  }
}
