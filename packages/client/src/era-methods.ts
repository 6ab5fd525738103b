import type { Connection, JSONRPCParams } from "@patchbay/jsonrpc-core";
import type { CallOptions, Client, ClientOptions } from "./client-types.js";
import { openSubscription } from "./modern-listen.js";
import { ModernResourceSubscriptions } from "./modern-resource-subscriptions.js";
import type { ModernSession } from "./modern-session.js";

/** What the era-dependent methods need from the client. */
export interface EraMethodsScope {
  readonly options: ClientOptions;
  readonly send: (
    method: string,
    params?: JSONRPCParams,
    callOptions?: CallOptions,
  ) => Promise<unknown>;
  readonly ready: (method: string) => Connection;
  readonly modern: () => ModernSession | undefined;
}

/**
 * The methods whose wire form differs by era: 2026-07-28 removed `ping`, `logging/setLevel`,
 * `resources/subscribe`/`unsubscribe` and `notifications/roots/list_changed`, and added
 * `subscriptions/listen`.
 */
export function createEraMethods(
  scope: EraMethodsScope,
): Pick<
  Client,
  | "ping"
  | "setLoggingLevel"
  | "subscribeResource"
  | "unsubscribeResource"
  | "notifyRootsListChanged"
  | "listen"
> {
  const { send, ready, modern } = scope;
  const resources = new ModernResourceSubscriptions();
  return {
    async ping(callOptions) {
      await send(modern() === undefined ? "ping" : "server/discover", undefined, callOptions);
    },
    async setLoggingLevel(level, callOptions) {
      const session = modern();
      if (session === undefined) await send("logging/setLevel", { level }, callOptions);
      else session.logLevel = level;
    },
    async subscribeResource(uri, callOptions) {
      const session = modern();
      if (session === undefined) await send("resources/subscribe", { uri }, callOptions);
      else await resources.subscribe(ready("subscriptions/listen"), session, uri);
    },
    async unsubscribeResource(uri, callOptions) {
      const session = modern();
      if (session === undefined) await send("resources/unsubscribe", { uri }, callOptions);
      else await resources.unsubscribe(ready("subscriptions/listen"), session, uri);
    },
    async notifyRootsListChanged() {
      if (scope.options.roots === undefined) {
        throw new Error("notifyRootsListChanged needs the roots handler (the roots capability)");
      }
      const connection = ready("notifications/roots/list_changed");
      // 2026-07-28: roots are asked for per request, so there is nothing to announce.
      if (modern() !== undefined) return;
      await connection.notify("notifications/roots/list_changed");
    },
    async listen(filter, listenOptions) {
      const connection = ready("subscriptions/listen");
      const session = modern();
      if (session === undefined) {
        throw new Error(
          "listen is a modern-era (2026-07-28) request; legacy servers send notifications unasked",
        );
      }
      return await openSubscription(connection, session, filter, listenOptions?.signal);
    },
  };
}
