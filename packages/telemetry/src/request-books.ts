import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResponse,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "@patchbay/jsonrpc-core";
import { requestSiteOf } from "./request-series.js";
import { type RequestStart, type RequestTracker, startTracking } from "./request-tracker.js";
import { outcomeOfResult } from "./response-outcome.js";
import type { Telemetry } from "./telemetry.js";

/** The requests tracked in one direction, by {@link keyOf} their id. */
export type PendingRequests = Map<string, RequestTracker>;

/** MCP's cancel notification; its `params.requestId` names the request that will get no response. */
const cancelledMethod = "notifications/cancelled";

/** The map key of a request id: 1 and "1" are different ids. */
export function keyOf(id: JSONRPCId | null): string {
  return typeof id === "number" ? `n${id}` : `s${String(id)}`;
}

/** Opens and closes the books of requests crossing an instrumented transport. */
export interface RequestBooks {
  /** Starts tracking a request, unless `maxPending` are tracked already or its id is. */
  start(
    pending: PendingRequests,
    direction: "incoming" | "outgoing",
    request: JSONRPCRequest,
  ): RequestTracker | undefined;
  /** Closes a request as cancelled when `message` is MCP's cancel notification for it. */
  cancel(pending: PendingRequests, message: JSONRPCMessage): void;
  /** Closes a request when `message` is its response. */
  finish(pending: PendingRequests, message: JSONRPCMessage): void;
}

/** Creates the {@link RequestBooks} of one instrumented transport. */
export function createRequestBooks(
  telemetry: Telemetry,
  context: { readonly backend?: string; readonly source?: string },
  maxPending: number,
): RequestBooks {
  const sites = {
    incoming: requestSiteOf(telemetry.metrics, "incoming", context.backend),
    outgoing: requestSiteOf(telemetry.metrics, "outgoing", context.backend),
  };
  return {
    start(pending, direction, request) {
      const key = keyOf(request.id);
      if (pending.size >= maxPending || pending.has(key)) return undefined;
      const start: { -readonly [K in keyof RequestStart]: RequestStart[K] } = {
        direction,
        method: request.method,
        params: request.params,
        id: request.id,
      };
      if (context.backend !== undefined) start.backend = context.backend;
      if (context.source !== undefined) start.source = context.source;
      const tracker = startTracking(telemetry, start, sites[direction]);
      pending.set(key, tracker);
      return tracker;
    },
    // MCP's cancel notification: the cancelled request gets no response, so its books close here.
    cancel(pending, message) {
      if (!isJSONRPCNotification(message) || message.method !== cancelledMethod) return;
      const params = message.params as { requestId?: unknown; reason?: unknown } | undefined;
      const requestId = params?.requestId;
      if (typeof requestId !== "string" && typeof requestId !== "number") return;
      const key = keyOf(requestId);
      const tracker = pending.get(key);
      if (tracker === undefined) return;
      pending.delete(key);
      const reason = typeof params?.reason === "string" ? params.reason : "cancelled by the peer";
      tracker.end({ outcome: "cancelled", error: { message: reason } });
    },
    finish(pending, message) {
      if (!isJSONRPCResponse(message)) return;
      const key = keyOf(message.id);
      const tracker = pending.get(key);
      if (tracker === undefined) return;
      pending.delete(key);
      if (isJSONRPCErrorResponse(message)) {
        tracker.end({
          outcome: "error",
          error: { code: message.error.code, message: message.error.message },
        });
      } else {
        tracker.end(outcomeOfResult(message.result));
      }
    },
  };
}
