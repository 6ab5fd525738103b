import type { JSONRPCNotification } from "@patchbay/jsonrpc-core";
import { isLoggingLevel, isLoggingLevelEnabled, type LoggingLevel } from "@patchbay/mcp-types";

/** What a client session knows that decides whether a backend notification reaches it. */
export interface NotificationAudience {
  /** The level the client set with `logging/setLevel`, if any. */
  readonly logLevel: LoggingLevel | undefined;
  /** Exposed resource URIs the client subscribed to. */
  readonly subscriptions: ReadonlySet<string>;
  /** The URI the client knows for a URI of the backend (rewritten when two backends share it). */
  exposeResourceUri(uri: string): string;
}

/**
 * The notification one client receives for a notification from `backend`, or `undefined` when it
 * receives none (the router README, "Router semantics"): `notifications/message` tagged with the backend in
 * `logger` and filtered by the client's level; `notifications/resources/updated` with the exposed
 * URI, only for a subscriber; anything else as it is.
 */
export function routeBackendNotification(
  backend: string,
  notification: JSONRPCNotification,
  audience: NotificationAudience,
): { method: string; params: Record<string, unknown> } | undefined {
  const raw = notification.params;
  const params =
    typeof raw === "object" && raw !== null && !Array.isArray(raw)
      ? { ...(raw as Record<string, unknown>) }
      : {};
  if (notification.method === "notifications/message") {
    // A level the gateway does not know is passed on: dropping it could hide a backend's errors.
    const level = params.level;
    if (isLoggingLevel(level) && !isLoggingLevelEnabled(level, audience.logLevel)) return undefined;
    const logger = typeof params.logger === "string" ? `${backend}/${params.logger}` : backend;
    return { method: notification.method, params: { ...params, logger } };
  }
  if (notification.method === "notifications/resources/updated") {
    const uri = audience.exposeResourceUri(String(params.uri ?? ""));
    return audience.subscriptions.has(uri)
      ? { method: notification.method, params: { ...params, uri } }
      : undefined;
  }
  return { method: notification.method, params };
}
