import { CancelledError, ConnectionClosedError } from "../errors/connection-errors.js";
import { ListenerSet } from "../internal/listener-set.js";
import type { JSONRPCNotification, JSONRPCParams } from "../messages.js";
import type { Transport, TransportCloseEvent } from "../transport.js";
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
import { createFrameSender, receiveFrames } from "./frames.js";
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
