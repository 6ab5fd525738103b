import { LocalError } from "../errors/local-error.js";
import { ListenerSet, toError } from "../internal/listener-set.js";
import type { JSONRPCId, JSONRPCNotification } from "../messages.js";
import type { FrameInfo, Unsubscribe } from "../transport.js";
import type { NotificationHandler } from "./connection-types.js";
import type { NotificationDescriptor, SchemaLike } from "./descriptors.js";
import type { CancellationHooks, ProgressHooks } from "./hooks.js";

/** What NotificationDispatch needs from its connection. */
export interface NotificationDispatchOptions {
  cancellation: CancellationHooks | undefined;
  progress: ProgressHooks | undefined;
  cancelIncoming(id: JSONRPCId, reason: string | undefined): void;
  progressOutgoing(token: JSONRPCId, params: unknown): boolean;
  report(error: Error): void;
}

interface NotificationEntry {
  readonly handler: NotificationHandler<unknown>;
  readonly paramsSchema: SchemaLike<unknown> | undefined;
}

/**
 * Routes incoming notifications: the protocol hooks see each one first (cancel, progress), then every
 * `onNotification` listener, then the method's handler. Unhandled notifications are ignored, as
 * JSON-RPC 2.0 says; failures are reported, never answered.
 */
export class NotificationDispatch {
  readonly listeners: ListenerSet<[JSONRPCNotification, FrameInfo]>;
  readonly #handlers = new Map<string, NotificationEntry>();
  readonly #options: NotificationDispatchOptions;

  constructor(options: NotificationDispatchOptions) {
    this.#options = options;
    this.listeners = new ListenerSet((error) => options.report(toError(error)));
  }

  /** Registers the handler of one method, replacing any earlier one. */
  handle(
    target: string | NotificationDescriptor<unknown>,
    handler: NotificationHandler<unknown>,
  ): Unsubscribe {
    const method = typeof target === "string" ? target : target.method;
    const entry = { handler, paramsSchema: typeof target === "string" ? undefined : target.params };
    this.#handlers.set(method, entry);
    return () => {
      if (this.#handlers.get(method) === entry) this.#handlers.delete(method);
    };
  }

  /** Handles one incoming notification. */
  dispatch(notification: JSONRPCNotification, info: FrameInfo): void {
    try {
      this.#applyHooks(notification);
    } catch (error) {
      this.#options.report(toError(error));
    }
    this.listeners.emit(notification, info);
    const entry = this.#handlers.get(notification.method);
    if (entry !== undefined) void this.#run(entry, notification, info);
  }

  #applyHooks(notification: JSONRPCNotification): void {
    const { cancellation, progress } = this.#options;
    const cancelledId = cancellation?.readRequestId(notification);
    if (cancelledId !== undefined) {
      const reason = readReason(notification.params);
      this.#options.cancelIncoming(cancelledId, reason);
    }
    const token = progress?.readToken(notification);
    if (token !== undefined) this.#options.progressOutgoing(token, notification.params);
  }

  async #run(entry: NotificationEntry, notification: JSONRPCNotification, info: FrameInfo) {
    const method = notification.method;
    try {
      const params =
        entry.paramsSchema === undefined
          ? notification.params
          : entry.paramsSchema.parse(notification.params);
      await entry.handler(params, info);
    } catch (error) {
      const message = `Handler for notification "${method}" failed: ${toError(error).message}`;
      this.#options.report(new LocalError("HANDLER_FAILED", message, { cause: error }));
    }
  }
}

/** A `reason` string in the params, as cancel notifications commonly carry. */
function readReason(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const reason = (params as { reason?: unknown }).reason;
  return typeof reason === "string" ? reason : undefined;
}
