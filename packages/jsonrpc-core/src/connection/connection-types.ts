import type { JSONRPCId, JSONRPCNotification, JSONRPCParams } from "../messages.js";
import type { FrameInfo, TransportCloseEvent, Unsubscribe } from "../transport.js";
import type { TimerClock } from "./clock.js";
import type { NotificationDescriptor, RequestDescriptor } from "./descriptors.js";
import type { CancellationHooks, ProgressHooks } from "./hooks.js";

/** Options of `createConnection`. */
export interface ConnectionOptions {
  /**
   * Timeout of each outgoing request unless it sets its own; `0` (or `Infinity`, or more than about
   * 24.8 days, which timers cannot hold) means none. Default 60 000.
   */
  defaultTimeoutMs?: number;
  /** Most incoming request handlers running at once; excess requests wait in order. Default 100. */
  maxConcurrentHandlers?: number;
  /**
   * Most incoming requests waiting for a handler slot; beyond it a request is answered at once with
   * `SERVER_BUSY_ERROR_CODE` (-32010) and never runs. Default 1000.
   */
  maxQueuedHandlers?: number;
  /** Protocol hooks for cancel notifications (both directions). */
  cancellation?: CancellationHooks;
  /** Protocol hooks for progress notifications of outgoing requests. */
  progress?: ProgressHooks;
  /** Timer functions (default: the global ones). */
  clock?: TimerClock;
}

/** Options of one outgoing request. */
export interface RequestOptions {
  /** Aborting it rejects the request with CancelledError and sends the cancel notification. */
  signal?: AbortSignal;
  /**
   * The same as `signal`, without an `AbortSignal`: pass a handler's `context.cancellation` to
   * cancel this request when the handler's request is cancelled.
   */
  cancellation?: Cancellation;
  /** Milliseconds without a response before TimeoutError; `0` or `Infinity` means none. */
  timeoutMs?: number;
  /** Restart the `timeoutMs` countdown whenever progress for this request arrives. */
  resetTimeoutOnProgress?: boolean;
  /** Hard limit from the moment of sending, never reset by progress. */
  maxTotalTimeoutMs?: number;
  /** Receives the params of each progress notification for this request (needs progress hooks). */
  onProgress?: (params: unknown) => void;
  /**
   * The incoming request this request is made for (a handler passes its `context.id`): the
   * transport sends it on that request's channel where it has one (see `SendOptions`).
   */
  relatedRequestId?: JSONRPCId;
  /** Called with the id the request is sent under, before it is sent (to match later relations). */
  onRequestId?: (id: JSONRPCId) => void;
  /**
   * Called once when the request settles, however it does (answered, failed, timed out, cancelled,
   * refused before sending, or closed with the connection), before the handlers of the promise
   * `request` returned run. Cheaper than a handler on that promise for bookkeeping (no promise).
   */
  onSettled?: () => void;
}

/** Options of one outgoing notification. */
export interface NotifyOptions {
  /** The incoming request this notification belongs to (a handler passes its `context.id`). */
  relatedRequestId?: JSONRPCId;
}

/** What a request handler learns besides the params. */
export interface RequestContext {
  /**
   * The request's id. Requests and notifications the handler sends for it pass it as
   * `relatedRequestId`, so that they travel with the request (its POST stream over HTTP).
   */
  readonly id: JSONRPCId;
  /** The request's method. */
  readonly method: string;
  /** Aborted when the peer cancels the request (cancellation hooks) or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * The same cancellation without an `AbortSignal` (a Connection's handlers always get one; the
   * signal is only made when read, so code that relays cancellation should prefer this).
   */
  readonly cancellation?: Cancellation;
  /** How the frame carrying the request arrived. */
  readonly info: FrameInfo;
  /** The connection the request arrived on (to send notifications or requests back). */
  readonly connection: Connection;
}

/** Answers one request: return the result, or throw a JSONRPCError to send that error. */
export type RequestHandler<Params = JSONRPCParams | undefined, Result = unknown> = (
  params: Params,
  context: RequestContext,
) => Result | Promise<Result>;

/** Receives one notification. */
export type NotificationHandler<Params = JSONRPCParams | undefined> = (
  params: Params,
  info: FrameInfo,
) => void | Promise<void>;

/** JSON-RPC 2.0 over a Transport: correlation, timeouts, cancellation, dispatch, batches. */
export interface Connection {
  /** Starts the transport; incoming frames are handled from then on. */
  start(): Promise<void>;
  /** Closes the transport; pending requests reject with ConnectionClosedError. Idempotent. */
  close(): Promise<void>;
  /** True once the transport has closed. */
  readonly closed: boolean;
  /** Subscribes to the close event (emitted once). */
  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe;
  /** Subscribes to non-fatal problems: invalid frames, unexpected responses, handler failures. */
  onError(listener: (error: Error) => void): Unsubscribe;

  /** Sends a request described by `descriptor`; resolves with its (parsed) result. */
  request<Params, Result>(
    descriptor: RequestDescriptor<Params, Result>,
    params?: Params,
    options?: RequestOptions,
  ): Promise<Result>;
  /** Sends a request by method name; resolves with the peer's result. */
  request(method: string, params?: JSONRPCParams, options?: RequestOptions): Promise<unknown>;

  /** Sends a notification described by `descriptor`. */
  notify<Params>(
    descriptor: NotificationDescriptor<Params>,
    params?: Params,
    options?: NotifyOptions,
  ): Promise<void>;
  /** Sends a notification by method name. */
  notify(method: string, params?: JSONRPCParams, options?: NotifyOptions): Promise<void>;

  /** Handles a request method, checking params with the descriptor's schema; replaces any earlier handler. */
  handle<Params, Result>(
    descriptor: RequestDescriptor<Params, Result>,
    handler: RequestHandler<Params, Result>,
  ): Unsubscribe;
  /** Handles a request method by name; replaces any earlier handler. */
  handle(method: string, handler: RequestHandler): Unsubscribe;

  /** Handles a notification method, checking params with the descriptor's schema. */
  handleNotification<Params>(
    descriptor: NotificationDescriptor<Params>,
    handler: NotificationHandler<Params>,
  ): Unsubscribe;
  /** Handles a notification method by name. */
  handleNotification(method: string, handler: NotificationHandler): Unsubscribe;

  /** Subscribes to every incoming notification, handled or not. */
  onNotification(
    listener: (notification: JSONRPCNotification, info: FrameInfo) => void,
  ): Unsubscribe;
  /** Answers requests that have no specific handler (`undefined` restores -32601). */
  setFallbackRequestHandler(handler: RequestHandler | undefined): void;
}

/**
 * The cancellation of one request, readable without an `AbortSignal`: a handler context carries
 * one, and a request sent on another connection for that handler can pass it as
 * `RequestOptions.cancellation` instead of `signal`. The signal is made only when someone reads it
 * (an `AbortSignal` and its `EventTarget` cost more than the rest of a relayed request).
 */
export interface Cancellation {
  /** True once the request was cancelled (by the peer, or because the connection closed). */
  readonly aborted: boolean;
  /** Why, once aborted. */
  readonly reason: unknown;
  /** Calls `listener` once when aborted (never if it already was: read `aborted` first). */
  onAbort(listener: (reason: unknown) => void): () => void;
}
