import type { Connection } from "@patchbay/jsonrpc-core";
import { LATEST_PROTOCOL_VERSION } from "@patchbay/mcp-types";
import type { ServerSessionApi as ServerSession } from "../session-api.js";
import { installCompletionHandler } from "../session-handlers/completion-handler.js";
import type { HandlerScope, ScopedHandler } from "../session-handlers/handler-scope.js";
import { installPromptHandlers } from "../session-handlers/prompt-handlers.js";
import { installResourceHandlers } from "../session-handlers/resource-handlers.js";
import { installToolHandlers } from "../session-handlers/tool-handlers.js";
import type { SessionHost } from "../session-host.js";

/**
 * Methods that 2026-07-28 removed: a modern request for one is -32601 like any unknown method
 * (`resources/subscribe` became `subscriptions/listen`).
 */
const REMOVED_METHODS = new Set(["resources/subscribe", "resources/unsubscribe"]);

/**
 * The feature handlers (tools, resources, prompts, completion) of the legacy session, collected
 * once for the session-less modern path: the same code answers both eras, and only the wrapping
 * (validation, `resultType`, caching hints, MRTR) differs.
 */
export function collectModernHandlers(host: SessionHost): ReadonlyMap<string, ScopedHandler> {
  const handlers = new Map<string, ScopedHandler>();
  const scope: HandlerScope = {
    session: undefined as unknown as ServerSession,
    // The handlers read the revision only to pick the modern "resource not found" code.
    state: {
      phase: "initialized",
      protocolVersion: LATEST_PROTOCOL_VERSION,
      subscriptions: new Set(),
    },
    host,
    connection: undefined as unknown as Connection,
    handle(method, handler) {
      if (!REMOVED_METHODS.has(method)) handlers.set(method, handler);
    },
    emitInitialized() {},
    emitRootsListChanged() {},
  };
  installToolHandlers(scope);
  installResourceHandlers(scope);
  installPromptHandlers(scope);
  installCompletionHandler(scope);
  return handlers;
}
