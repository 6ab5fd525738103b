import {
  CancelledError,
  type Connection,
  type JSONRPCId,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { getSubscriptionId } from "@patchbay/mcp-types";
import type { ModernSession } from "./modern-session.js";

/** What a `subscriptions/listen` stream asks for (MCP 2026-07-28). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  /** Resources whose `notifications/resources/updated` to receive. */
  resourceSubscriptions?: string[];
}

/** An open `subscriptions/listen` stream. */
export interface Subscription {
  /** The listen request's id: the notifications of this stream carry it in `_meta`. */
  readonly id: JSONRPCId;
  /** The subset the server agreed to (`notifications/subscriptions/acknowledged`). */
  readonly acknowledged: SubscriptionFilter;
  /** Settles when the stream ends: the server ended it, `close()` was called, or the connection closed. */
  readonly ended: Promise<void>;
  /** Ends the stream (stdio: `notifications/cancelled`; HTTP: the response stream is closed). */
  close(): Promise<void>;
}

/**
 * Opens a `subscriptions/listen` stream and resolves once the server acknowledged it; change
 * notifications then reach the client's `on(...)` listeners like any other notification.
 */
export async function openSubscription(
  connection: Connection,
  session: ModernSession,
  filter: SubscriptionFilter,
  signal?: AbortSignal,
): Promise<Subscription> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let id: JSONRPCId | undefined;
  let stopWaiting: Unsubscribe = () => undefined;
  const acknowledged = new Promise<SubscriptionFilter>((resolve) => {
    stopWaiting = connection.onNotification((notification) => {
      if (notification.method !== "notifications/subscriptions/acknowledged") return;
      if (id === undefined || getSubscriptionId(notification.params) !== id) return;
      const agreed = (notification.params as { notifications?: SubscriptionFilter }).notifications;
      resolve(agreed ?? {});
    });
  });
  const request = connection.request(
    "subscriptions/listen",
    session.withRequestMeta({ notifications: { ...filter } }),
    {
      signal: controller.signal,
      timeoutMs: 0,
      onRequestId: (requestId) => {
        id = requestId;
      },
    },
  );
  const ended = request.then(
    () => undefined,
    (error: unknown) => {
      if (!CancelledError.isInstance(error)) throw error;
    },
  );
  ended.catch(() => undefined);
  ended.finally(() => signal?.removeEventListener("abort", onAbort)).catch(() => undefined);
  try {
    const agreed = await Promise.race([acknowledged, request.then(() => ({}))]);
    return {
      id: id as JSONRPCId,
      acknowledged: agreed,
      ended,
      async close() {
        controller.abort(new Error("subscription closed"));
        await ended.catch(() => undefined);
      },
    };
  } finally {
    stopWaiting();
  }
}
