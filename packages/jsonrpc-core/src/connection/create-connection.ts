import { CancelledError, ConnectionClosedError } from "../errors/connection-errors.js";
import { InvalidFrameError, LineTooLongError, TransportError } from "../errors/transport-errors.js";
import { ListenerSet, toError } from "../internal/listener-set.js";
import {
  type Frame,
  isBatch,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCParams,
  type JSONRPCResponse,
} from "../messages.js";
import type { FrameInfo, Transport, TransportCloseEvent } from "../transport.js";
import { systemClock } from "./clock.js";
import type {
  Connection,
  ConnectionOptions,
  NotificationHandler,
  NotifyOptions,
  RequestHandler,
  RequestOptions,
} from "./connection-types.js";
import type { NotificationDescriptor, RequestDescriptor } from "./descriptors.js";
import { answerDroppedLine } from "./dropped-line.js";
import { IncomingRequests } from "./incoming-requests.js";
import { NotificationDispatch } from "./notification-dispatch.js";
import { OutgoingRequests } from "./outgoing-requests.js";

/** Default timeout of outgoing requests (60 s, as MCP clients commonly use). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Default bound on incoming request handlers running at once. */
export const DEFAULT_MAX_CONCURRENT_HANDLERS = 100;

/** Creates a JSON-RPC 2.0 connection over `transport`. Call `start()` to begin. */
export function createConnection(
  transport: Transport,
  options: ConnectionOptions = {},
): Connection {
  let closed = false;
  const errorListeners = new ListenerSet<[Error]>();
  const closeListeners = new ListenerSet<[TransportCloseEvent]>();
  const report = (error: Error) => errorListeners.emit(error);
  const cancellation = options.cancellation;
  const sender = createFrameSender(transport, () => closed, report);

  const outgoing = new OutgoingRequests({
    clock: options.clock ?? systemClock,
    defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    progress: options.progress,
    sendCancel: (id, reason) => {
      if (cancellation !== undefined)
        sender.sendQuietly(cancellation.createNotification(id, reason));
    },
    report,
  });

  const connection: Connection = {
    start: () => transport.start(),
    close: () => transport.close(),
    get closed() {
      return closed;
    },
    onClose: (listener) => closeListeners.add(listener),
    onError: (listener) => errorListeners.add(listener),
    request(
      target: string | RequestDescriptor<unknown, unknown>,
      params?: unknown,
      requestOptions: RequestOptions = {},
    ): Promise<never> {
      const method = typeof target === "string" ? target : target.method;
      if (closed) {
        settledBeforeSending(requestOptions, report);
        return Promise.reject(new ConnectionClosedError());
      }
      const cancelled = requestOptions.signal ?? requestOptions.cancellation;
      if (cancelled?.aborted === true) {
        settledBeforeSending(requestOptions, report);
        const message = `Request "${method}" was cancelled before it was sent`;
        return Promise.reject(new CancelledError(message, { cause: cancelled.reason }));
      }
      const resultSchema = typeof target === "string" ? undefined : target.result;
      const begun = outgoing.begin(
        method,
        params as JSONRPCParams | undefined,
        requestOptions,
        resultSchema,
      );
      // One handler on the transport's promise: a failed send rejects this request alone.
      sender.sendOr(begun.message, requestOptions.relatedRequestId, (error) =>
        outgoing.fail(begun.message.id, error),
      );
      return begun.result as Promise<never>;
    },
    notify(
      target: string | NotificationDescriptor<unknown>,
      params?: unknown,
      notifyOptions?: NotifyOptions,
    ): Promise<void> {
      const method = typeof target === "string" ? target : target.method;
      const message: JSONRPCNotification =
        params === undefined
          ? { jsonrpc: "2.0", method }
          : { jsonrpc: "2.0", method, params: params as JSONRPCParams };
      return sender.send(message, notifyOptions?.relatedRequestId);
    },
    handle(target: string | RequestDescriptor<unknown, unknown>, handler: RequestHandler<never>) {
      const method = typeof target === "string" ? target : target.method;
      const entry = {
        handler: handler as RequestHandler<unknown, unknown>,
        paramsSchema: typeof target === "string" ? undefined : target.params,
      };
      incoming.handlers.set(method, entry);
      return () => {
        if (incoming.handlers.get(method) === entry) incoming.handlers.delete(method);
      };
    },
    handleNotification(
      target: string | NotificationDescriptor<unknown>,
      handler: NotificationHandler<never>,
    ) {
      return notifications.handle(target, handler as NotificationHandler<unknown>);
    },
    onNotification: (listener) => notifications.listeners.add(listener),
    setFallbackRequestHandler(handler) {
      incoming.fallback =
        handler === undefined
          ? undefined
          : { handler: handler as RequestHandler<unknown, unknown>, paramsSchema: undefined };
    },
  } as Connection;

  const incoming = new IncomingRequests(
    connection,
    options.maxConcurrentHandlers ?? DEFAULT_MAX_CONCURRENT_HANDLERS,
    report,
    options.maxQueuedHandlers,
  );
  const notifications = new NotificationDispatch({
    cancellation,
    progress: options.progress,
    cancelIncoming: (id, reason) => incoming.cancel(id, reason),
    progressOutgoing: (token, params) => outgoing.progress(token, params),
    report,
  });

  receiveFrames(transport, {
    outgoing,
    incoming,
    notifications,
    sender,
    report,
    closed(event) {
      if (closed) return;
      closed = true;
      const closedOptions = event.error === undefined ? {} : { cause: event.error };
      outgoing.rejectAll(new ConnectionClosedError("Connection closed", closedOptions));
      incoming.abortAll();
      closeListeners.emit(event);
    },
  });

  return connection;
}

/** Calls a refused request's `onSettled`; a hook that throws is reported, not thrown. */
function settledBeforeSending(options: RequestOptions, report: (error: Error) => void): void {
  try {
    options.onSettled?.();
  } catch (error) {
    report(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The parts of a connection that incoming frames are handed to. */
export interface FrameReceivers {
  readonly outgoing: OutgoingRequests;
  readonly incoming: IncomingRequests;
  readonly notifications: NotificationDispatch;
  readonly sender: FrameSender;
  report(error: Error): void;
  /** The transport closed (called once). */
  closed(event: TransportCloseEvent): void;
}

/**
 * Subscribes a connection to its transport: responses settle outgoing requests, requests run their
 * handlers, notifications are dispatched, batches are
 * answered as one batch, invalid frames get their error response.
 */
export function receiveFrames(transport: Transport, receivers: FrameReceivers): void {
  const { outgoing, incoming, notifications, sender } = receivers;

  /**
   * Handles one message; resolves with the response owed for it, if any. `respond`, when given,
   * sends that response as soon as it is owed (a lone request: no handler on the promise).
   */
  const handleMessage = (
    message: JSONRPCMessage,
    info: FrameInfo,
    respond?: (response: JSONRPCResponse) => void,
  ): Promise<JSONRPCResponse | undefined> | undefined => {
    if (!("method" in message)) {
      outgoing.receive(message);
      return undefined;
    }
    if ("id" in message) return incoming.dispatch(message, info, respond);
    notifications.dispatch(message, info);
    return undefined;
  };

  const handleBatch = async (batch: readonly JSONRPCMessage[], info: FrameInfo) => {
    const pending = batch.map((message) => handleMessage(message, info));
    const responses: JSONRPCResponse[] = [...(info.rejected ?? [])];
    for (const response of await Promise.all(pending)) {
      if (response !== undefined) responses.push(response);
    }
    // JSON-RPC 2.0 section 6: nothing is returned when no response is owed.
    if (responses.length > 0) sender.sendQuietly(responses);
  };

  // Made once, not per request: transports route a response by its id, no relation travels with it.
  const sendResponse = (response: JSONRPCResponse): void => sender.sendQuietly(response);
  transport.onFrame((frame: Frame, info) => {
    if (isBatch(frame)) {
      void handleBatch(frame, info);
      return;
    }
    // A lone request's response is sent by its dispatch (no handler on its promise).
    void handleMessage(frame, info, sendResponse);
  });

  transport.onError((error) => {
    if (InvalidFrameError.isInstance(error)) sender.sendQuietly(error.response);
    if (LineTooLongError.isInstance(error)) {
      answerDroppedLine(error, outgoing, (response) => sender.sendQuietly(response));
    }
    receivers.report(error);
  });

  transport.onClose((event) => receivers.closed(event));
}

/** Sends frames on a connection's transport, turning every failure into a rejected promise. */
export interface FrameSender {
  /** Sends a frame; rejects with `ConnectionClosedError` after close, `TransportError` on failure. */
  send(frame: Frame, relatedRequestId?: JSONRPCId): Promise<void>;
  /** Sends a frame and reports a failure instead of rejecting (responses, cancel notifications). */
  sendQuietly(frame: Frame, relatedRequestId?: JSONRPCId): void;
  /**
   * Sends a frame and hands a failure (as `send` would reject with it) to `onFailure` instead of
   * rejecting: one promise handler, for requests, whose failure settles the request instead.
   */
  sendOr(
    frame: Frame,
    relatedRequestId: JSONRPCId | undefined,
    onFailure: (error: Error) => void,
  ): void;
}

/** Builds the sender of one connection. */
export function createFrameSender(
  transport: Transport,
  isClosed: () => boolean,
  report: (error: Error) => void,
): FrameSender {
  const transportSend = (frame: Frame, relatedRequestId?: JSONRPCId): Promise<void> => {
    try {
      return relatedRequestId === undefined
        ? transport.send(frame)
        : transport.send(frame, { relatedRequestId });
    } catch (error) {
      // A transport that throws instead of rejecting still fails only this call.
      return Promise.reject(error);
    }
  };
  // Made once: a send that fails is reported, with no closure per frame.
  const reportFailure = (error: unknown): void => report(toError(asTransportError(error)));
  return {
    send(frame, relatedRequestId) {
      if (isClosed()) return Promise.reject(new ConnectionClosedError());
      return transportSend(frame, relatedRequestId).catch((error: unknown) => {
        throw asTransportError(error);
      });
    },
    // One handler on the transport's promise: responses are sent this way, once per request.
    sendQuietly(frame, relatedRequestId) {
      if (isClosed()) return;
      transportSend(frame, relatedRequestId).then(undefined, reportFailure);
    },
    sendOr(frame, relatedRequestId, onFailure) {
      if (isClosed()) {
        onFailure(new ConnectionClosedError());
        return;
      }
      transportSend(frame, relatedRequestId).then(undefined, (error: unknown) =>
        onFailure(toError(asTransportError(error))),
      );
    },
  };
}

function asTransportError(error: unknown): unknown {
  return TransportError.isInstance(error)
    ? error
    : new TransportError("The transport failed to send", { cause: error });
}
