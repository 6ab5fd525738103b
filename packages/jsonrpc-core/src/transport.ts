import type { Frame, JSONRPCErrorResponse, JSONRPCId } from "./messages.js";

/** Ends a subscription. Calling it more than once is harmless. */
export type Unsubscribe = () => void;

/** Facts about how one frame arrived, handed to frame listeners beside the frame. */
export interface FrameInfo {
  /**
   * Error responses owed for elements of an incoming batch that were not valid JSON-RPC (one -32600
   * each). The receiver adds them to its batch reply. Present only for batches; a batch whose every
   * element was invalid arrives as an empty array with one entry here per element.
   */
  readonly rejected?: readonly JSONRPCErrorResponse[];
  /** Transport-specific facts (for example the HTTP request headers or authentication result). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /**
   * The id of a request this side sent that the incoming message belongs to, when the transport can
   * tell (a Streamable HTTP client: the message came on that request's POST stream; the memory pair:
   * the sender said so). Absent when the channel carries no such relation (stdio).
   */
  readonly relatedRequestId?: JSONRPCId;
}

/** Options of `Transport.send`. */
export interface SendOptions {
  /**
   * The id of the incoming request this frame belongs to: its response, or a request or
   * notification sent while handling it. A transport with one channel per request (Streamable HTTP)
   * sends the frame on that request's channel; others may ignore it or pass it on to the peer as
   * `FrameInfo.relatedRequestId`.
   */
  readonly relatedRequestId?: JSONRPCId;
}

/** Why and how a transport ended; handed to close listeners exactly once. */
export interface TransportCloseEvent {
  /** `local`: this side called `close()`; `remote`: the peer went away; `error`: a failure ended it. */
  readonly initiator: "local" | "remote" | "error";
  /** The failure that ended the transport, when there was one. */
  readonly error?: Error;
  /** Transport-specific facts, such as a child process's exit code and signal. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Moves frames between two peers. A transport never correlates requests with responses: that is the
 * Connection's job.
 *
 * Rules every implementation follows (and `@patchbay/contract-tests` checks):
 * - `start()` begins delivery; frames that arrive before it are queued, not lost. Calling it again is
 *   harmless.
 * - `send()` resolves once the frame is handed to the underlying channel; after close it rejects with
 *   a `TransportError`.
 * - `close()` is idempotent; each side emits exactly one close event, whichever side closed.
 * - Text that is not valid JSON-RPC as a whole (bad JSON, an empty batch, an invalid single message) is
 *   reported to error listeners as an `InvalidFrameError` whose `response` the receiver sends back;
 *   the transport stays open. An error event is not fatal unless a close event follows.
 */
export interface Transport {
  /**
   * True when the channel itself answers every request the peer receives, as HTTP does (a server
   * that does not know a request still answers its POST, with an HTTP error): a request with no
   * answer yet is a slow one, never a peer that ignores it. Absent on channels such as stdio.
   */
  readonly answersEveryRequest?: boolean;
  /** Begins delivering frames; idempotent. */
  start(): Promise<void>;
  /** Sends one frame (a message or a batch), related to an incoming request when `options` say so. */
  send(frame: Frame, options?: SendOptions): Promise<void>;
  /** Ends the transport; idempotent. Resolves once the close event has been emitted. */
  close(): Promise<void>;
  /** Subscribes to incoming frames. */
  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe;
  /** Subscribes to non-fatal errors (and to the error that precedes a failure close). */
  onError(listener: (error: Error) => void): Unsubscribe;
  /** Subscribes to the close event, emitted exactly once. */
  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe;
}
