import type { Connection, JSONRPCNotification, Unsubscribe } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";

/** Params of `notifications/message` (MCP 2025-11-25). */
export type LoggingMessageNotificationParams = v2025_11_25.LoggingMessageNotificationParams;

/** Params of `notifications/resources/updated` (MCP 2025-11-25). */
export type ResourceUpdatedNotificationParams = v2025_11_25.ResourceUpdatedNotificationParams;

/**
 * Params of `notifications/progress` (MCP 2025-11-25); those not tied to a call with `onProgress`
 * arrive through `on`.
 */
export type ProgressNotificationParams = v2025_11_25.ProgressNotificationParams;

/** Params of `notifications/cancelled` (MCP 2025-11-25). */
export type CancelledNotificationParams = v2025_11_25.CancelledNotificationParams;

/** Every server notification by method, with its params type. */
export interface ServerNotificationMap {
  "notifications/tools/list_changed": Record<string, unknown>;
  "notifications/resources/list_changed": Record<string, unknown>;
  "notifications/prompts/list_changed": Record<string, unknown>;
  "notifications/resources/updated": ResourceUpdatedNotificationParams;
  "notifications/message": LoggingMessageNotificationParams;
  "notifications/progress": ProgressNotificationParams;
  "notifications/cancelled": CancelledNotificationParams;
  "notifications/elicitation/complete": v2025_11_25.ElicitationCompleteNotificationParams;
  /** A task's new status (2025-11-25 tasks): the task's fields. */
  "notifications/tasks/status": v2025_11_25.Task;
}

/** A server notification's method name. */
export type ServerNotificationMethod = keyof ServerNotificationMap;

/**
 * Fans incoming notifications out to any number of listeners per method; each subscription returns
 * its own unsubscribe function.
 */
export class ClientEvents {
  readonly #listeners = new Map<string, Set<(params: never) => void>>();
  readonly #any = new Set<(notification: JSONRPCNotification) => void>();

  /** Starts listening to a connection's notifications. */
  attach(connection: Connection): Unsubscribe {
    return connection.onNotification((notification) => this.dispatch(notification));
  }

  /** Delivers one notification to its listeners. */
  dispatch(notification: JSONRPCNotification): void {
    const params = (notification.params ?? {}) as never;
    for (const listener of [...(this.#listeners.get(notification.method) ?? [])]) listener(params);
    for (const listener of [...this.#any]) listener(notification);
  }

  /** Subscribes to one notification method. */
  on<Method extends ServerNotificationMethod>(
    method: Method,
    listener: (params: ServerNotificationMap[Method]) => void,
  ): Unsubscribe;
  /** Subscribes to any notification method by name (for extensions). */
  on(method: string, listener: (params: Record<string, unknown>) => void): Unsubscribe;
  on(method: string, listener: (params: never) => void): Unsubscribe {
    let listeners = this.#listeners.get(method);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(method, listeners);
    }
    const set = listeners;
    const wrapped = (params: never) => listener(params);
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  }

  /** Subscribes to every notification. */
  onAny(listener: (notification: JSONRPCNotification) => void): Unsubscribe {
    const wrapped = (notification: JSONRPCNotification) => listener(notification);
    this.#any.add(wrapped);
    return () => {
      this.#any.delete(wrapped);
    };
  }
}
