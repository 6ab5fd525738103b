import {
  decode,
  ErrorCode,
  encode,
  type Frame,
  type FrameInfo,
  InvalidFrameError,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { CloseCode, ORDERLY_CLOSE_CODES } from "./close-codes.js";
import type { SocketPort } from "./socket-port.js";

/** The largest message accepted or sent by default: 64 MiB of UTF-8 JSON. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The unsent backlog above which a peer counts as not reading, by default: 16 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** Limits shared by the client and server sides. */
export interface WebSocketLimits {
  /**
   * The largest message, in bytes of UTF-8, received or sent (default 64 MiB). A larger incoming
   * message closes the socket with 1009; a larger outgoing one is refused by `send`.
   */
  readonly maxMessageBytes?: number;
  /**
   * The unsent backlog, in bytes, above which the peer counts as not reading (default 16 MiB): the
   * next `send` then closes the socket with 1008 instead of buffering without end.
   */
  readonly maxBufferedBytes?: number;
}

/**
 * Whether incoming JSON-RPC batches are accepted: `by-revision` (only while the negotiated revision
 * has them: 2025-03-26 and older, since 2025-06-18 removed them; also before a revision is agreed),
 * `accept` or `reject`.
 */
export type BatchPolicy = "by-revision" | "accept" | "reject";

/** Settings of one {@link WebSocketTransport}. */
export interface WebSocketTransportSettings extends WebSocketLimits {
  /** Incoming batches (default `accept`; the server handler passes `by-revision`). */
  readonly batches?: BatchPolicy;
  /** Names the side in error messages (`"WebSocket client"`, `"WebSocket server"`). */
  readonly label: string;
  /** Transport-specific facts handed to frame listeners (for example the authentication result). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

const encoder = new TextEncoder();

/** Bytes of `text` as UTF-8, counted only when the character count leaves it in doubt. */
function exceeds(text: string, maxBytes: number): number | undefined {
  if (text.length * 3 <= maxBytes) return undefined;
  const bytes = text.length > maxBytes ? text.length : encoder.encode(text).byteLength;
  return bytes > maxBytes ? bytes : undefined;
}

/**
 * A transport over one WebSocket: one JSON-RPC message (or batch) per text message. Binary messages
 * and text that is not JSON-RPC are reported as `InvalidFrameError` (the connection answers -32700
 * or -32600) and the socket stays open. A peer that closes with 1000 or 1001 ends the transport as
 * `remote`; any other code as an `error` carrying the code and reason.
 */
export class WebSocketTransport implements Transport {
  #port: SocketPort | undefined;
  readonly #events = new TransportEvents();
  readonly #label: string;
  readonly #maxMessageBytes: number;
  readonly #maxBufferedBytes: number;
  readonly #info: FrameInfo;
  #open: boolean;
  #closing = false;
  #socketError: TransportError | undefined;
  readonly #batches: BatchPolicy;
  /** The revision this side's `initialize` answer agreed, once sent (server side). */
  #protocolVersion: string | undefined;
  #whenOpen: { resolve(): void; reject(error: Error): void } | undefined;
  /** Resolves when the socket is open; rejects if the transport closes first. */
  readonly opened: Promise<void>;

  /**
   * Wraps `port`, which is open already when `open` is true (a server's sockets are); without a port
   * (a client that has not started), {@link attach} hands it over later.
   */
  constructor(port: SocketPort | undefined, settings: WebSocketTransportSettings, open = false) {
    this.#label = settings.label;
    this.#maxMessageBytes = settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxBufferedBytes = settings.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#info = settings.extra === undefined ? {} : { extra: settings.extra };
    this.#batches = settings.batches ?? "accept";
    this.#open = open;
    this.opened = open
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          this.#whenOpen = { resolve, reject };
        });
    // Nobody may wait for it (a server socket, or a client that never starts).
    this.opened.catch(() => {});
    if (port !== undefined) this.attach(port);
  }

  /** Takes over the socket; the transport then reports its events. */
  attach(port: SocketPort): void {
    if (this.#events.closed) {
      port.close(CloseCode.Normal, "closed");
      return;
    }
    this.#port = port;
    port.listen({
      open: () => {
        this.#open = true;
        this.#whenOpen?.resolve();
      },
      text: (text) => this.#receive(text),
      binary: (bytes) =>
        this.#events.emitError(
          new InvalidFrameError(
            `${this.#label} received a binary message of ${bytes} bytes; MCP messages are text`,
            parseError("binary WebSocket messages are not JSON-RPC"),
          ),
        ),
      close: (code, reason) => this.#closedBySocket(code, reason),
      error: (error) => {
        this.#socketError = toTransportError(this.#label, error);
        this.#events.emitError(this.#socketError);
      },
    });
  }

  /** True once the socket is open and the transport not closed. */
  get isOpen(): boolean {
    return this.#open && !this.#events.closed;
  }

  async start(): Promise<void> {
    this.#events.start();
  }

  async send(frame: Frame): Promise<void> {
    if (this.#events.closed || this.#closing) {
      throw new TransportError(`Cannot send: the ${this.#label} transport is closed`);
    }
    if (!this.#open) throw new TransportError(`Cannot send: the ${this.#label} is not open yet`);
    if (this.#batches === "by-revision" && this.#protocolVersion === undefined) {
      this.#protocolVersion = agreedRevision(frame);
    }
    // `encode`: a large result a relay kept goes on as the text it came in (no second serialization).
    const text = encode(frame);
    const tooLarge = exceeds(text, this.#maxMessageBytes);
    if (tooLarge !== undefined) {
      throw new TransportError(
        `Cannot send a message of ${tooLarge} bytes: the ${this.#label} limit (maxMessageBytes) is ${this.#maxMessageBytes}`,
      );
    }
    const port = this.#port!;
    const backlog = port.bufferedAmount;
    if (backlog > this.#maxBufferedBytes) {
      const error = new TransportError(
        `The ${this.#label}'s peer is not reading: ${backlog} bytes are still unsent (maxBufferedBytes ${this.#maxBufferedBytes}); disconnected`,
      );
      this.#shut(CloseCode.PolicyViolation, "peer is not reading", { initiator: "error", error });
      throw error;
    }
    port.send(text);
  }

  async close(): Promise<void> {
    this.#shut(CloseCode.Normal, "closed", { initiator: "local" });
  }

  /** Closes with a chosen code, for example 1001 when a server shuts down. */
  closeWith(code: number, reason: string): void {
    this.#shut(code, reason, { initiator: "local" });
  }

  /** Ends the transport after a failure found outside it (for example a missed keep-alive). */
  fail(code: number, error: TransportError): void {
    this.#events.emitError(error);
    this.#shut(code, error.message.slice(0, 120), { initiator: "error", error });
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#events.onClose(listener);
  }

  #receive(text: string): void {
    const tooLarge = exceeds(text, this.#maxMessageBytes);
    if (tooLarge !== undefined) {
      const error = new TransportError(
        `${this.#label} received a message of ${tooLarge} bytes, over its limit (maxMessageBytes) of ${this.#maxMessageBytes}`,
      );
      this.#events.emitError(error);
      this.#shut(CloseCode.MessageTooBig, "message too big", { initiator: "error", error });
      return;
    }
    const result = decode(text);
    if (!result.ok) {
      const reason =
        result.response.error.code === ErrorCode.ParseError ? "not JSON" : "not JSON-RPC";
      this.#events.emitError(
        new InvalidFrameError(
          `${this.#label} received a message that is ${reason}`,
          result.response,
        ),
      );
      return;
    }
    if (Array.isArray(result.frame) && !this.#batchAllowed()) {
      this.#events.emitError(
        new InvalidFrameError(
          `${this.#label} received a batch, which protocol version ${this.#protocolVersion} does not allow`,
          {
            jsonrpc: "2.0",
            id: null,
            error: {
              code: ErrorCode.InvalidRequest,
              message: "Invalid Request",
              data: `batches are not accepted for protocol version ${this.#protocolVersion}`,
            },
          },
        ),
      );
      return;
    }
    this.#events.emitFrame(
      result.frame,
      result.rejected.length === 0 ? this.#info : { ...this.#info, rejected: result.rejected },
    );
  }

  #batchAllowed(): boolean {
    if (this.#batches === "accept") return true;
    if (this.#batches === "reject") return false;
    // Batches exist up to 2025-03-26 (2025-06-18 removed them); before agreement, JSON-RPC rules.
    return this.#protocolVersion === undefined || this.#protocolVersion <= "2025-03-26";
  }

  #shut(code: number, reason: string, event: TransportCloseEvent): void {
    if (this.#events.closed) return;
    this.#closing = true;
    try {
      this.#port?.close(code, reason);
    } catch {
      // A socket that is already closing has nothing left to close.
    }
    this.#emitClose({ ...event, details: { code, reason } });
  }

  #emitClose(event: TransportCloseEvent): void {
    if (!this.#open) {
      // The socket's own error (a refused handshake) says more than the close code after it.
      this.#whenOpen?.reject(
        this.#socketError ??
          event.error ??
          new TransportError(`The ${this.#label} closed before it opened (${describe(event)})`),
      );
    }
    this.#events.emitClose(event);
  }

  #closedBySocket(code: number, reason: string): void {
    if (this.#events.closed) return;
    const details = { code, reason };
    if (ORDERLY_CLOSE_CODES.has(code)) {
      this.#emitClose({ initiator: "remote", details });
      return;
    }
    const error = new TransportError(
      `The ${this.#label} closed with code ${code}${reason === "" ? "" : `: ${reason}`}`,
    );
    this.#events.emitError(error);
    this.#emitClose({ initiator: "error", error, details });
  }
}

/** The revision an `initialize` answer agrees on, if `frame` is one. */
function agreedRevision(frame: Frame): string | undefined {
  if (Array.isArray(frame) || !("result" in frame)) return undefined;
  const result = frame.result as { protocolVersion?: unknown; serverInfo?: unknown } | undefined;
  return typeof result?.protocolVersion === "string" && result.serverInfo !== undefined
    ? result.protocolVersion
    : undefined;
}

function parseError(reason: string) {
  return {
    jsonrpc: "2.0" as const,
    id: null,
    error: { code: ErrorCode.ParseError, message: "Parse error", data: reason },
  };
}

function describe(event: TransportCloseEvent): string {
  const code = event.details?.code;
  return code === undefined ? event.initiator : `code ${String(code)}`;
}

function toTransportError(label: string, error: Error): TransportError {
  return new TransportError(`The ${label} failed: ${error.message}`, { cause: error });
}
