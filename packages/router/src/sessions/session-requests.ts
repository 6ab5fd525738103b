import { ErrorCode, JSONRPCError } from "@patchbay/jsonrpc-core";
import { isLoggingLevel, type LoggingLevel } from "@patchbay/mcp-types";
import { INVALID_PARAMS } from "../errors/map-error.js";
import type { ForwardCall } from "./forward-call.js";
import { asParams } from "./params.js";
import type { SessionCatalogue } from "./session-catalogue.js";
import type { SessionLifecycle } from "./session-lifecycle.js";

/** Tells which level a backend should log at, from the levels its sessions asked for. */
export interface LogLevelPeers {
  logLevelFor(backend: string, owner?: string): LoggingLevel | undefined;
}

/**
 * `logging/setLevel`: the client's level is its own (`setLevel` records it); each running backend
 * that logs gets its owner's level or, when shared, the most verbose its clients asked for.
 */
export function handleSetLevel(
  sessionId: string,
  lifecycle: SessionLifecycle,
  view: SessionCatalogue,
  peers: LogLevelPeers,
  setLevel: (level: LoggingLevel) => void,
): void {
  lifecycle.handle("logging/setLevel", async (params) => {
    const level = asParams(params).level;
    if (typeof level !== "string" || !isLoggingLevel(level)) {
      throw new JSONRPCError(INVALID_PARAMS, `Invalid logging level: ${JSON.stringify(level)}`);
    }
    setLevel(level);
    await view.awaitStartingBackends();
    const logging = view
      .backends()
      .filter(
        (backend) => backend.status === "running" && backend.initializeResult?.capabilities.logging,
      );
    await Promise.all(
      logging.map((backend) => {
        const owner = backend.config.isolation === "per-session" ? sessionId : undefined;
        const backendLevel = peers.logLevelFor(backend.name, owner);
        return backendLevel === undefined
          ? undefined
          : backend.request("logging/setLevel", { level: backendLevel }).catch(() => {});
      }),
    );
    return {};
  });
}

/** A method the gateway does not know goes to the only running backend, else -32601. */
export function handleUnknownMethods(
  lifecycle: SessionLifecycle,
  view: SessionCatalogue,
  forward: ForwardCall,
): void {
  lifecycle.handleUnknown(async (params, context) => {
    const running = view.backends().filter((backend) => backend.status === "running");
    const only = running.length === 1 ? running[0] : undefined;
    if (!only) {
      throw new JSONRPCError(ErrorCode.MethodNotFound, `Method not found: ${context.method}`, {
        reason: "the gateway cannot tell which backend should receive it",
      });
    }
    return await forward(only.name, context.method, asParams(params), context);
  });
}

/** Tells every backend of the session that the client's roots changed. */
export async function notifyRootsChanged(view: SessionCatalogue): Promise<void> {
  await Promise.all(
    view
      .backends()
      .map((backend) => backend.notify("notifications/roots/list_changed").catch(() => {})),
  );
}
