import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestIdMap,
} from "@patchbay/jsonrpc-core";
import { type RequestSite, requestSiteOf } from "./request-series.js";
import {
  addSpanFields,
  type RequestEnd,
  type RequestStart,
  type RequestTracker,
  startTracking,
} from "./request-tracker.js";
import type { Telemetry } from "./telemetry.js";

/** Reads how a request ended from its JSON-RPC result: `tool_error` for MCP's `isError: true`. */
export function outcomeOfResult(result: unknown): RequestEnd {
  if (
    result !== null &&
    typeof result === "object" &&
    (result as { isError?: unknown }).isError === true
  ) {
    return { outcome: "tool_error", error: { message: "tool returned isError: true" } };
  }
  return SUCCESS;
}

/** Every successful request's end: one object, not one per request (a tracker keeps it). */
const SUCCESS: RequestEnd = Object.freeze({ outcome: "success" });

/**
 * Reads how a request ended from a thrown or wire error: jsonrpc-core's local error codes map to
 * `timeout`, `cancelled` and `closed`; anything else (a peer's JSON-RPC error) is `error`.
 */
export function outcomeOfError(error: unknown): RequestEnd {
  const code =
    error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const detail = {
    ...(typeof code === "number" || typeof code === "string" ? { code } : {}),
    message,
  };
  if (code === "REQUEST_TIMEOUT") return { outcome: "timeout", error: detail };
  if (code === "REQUEST_CANCELLED") return { outcome: "cancelled", error: detail };
  if (code === "CONNECTION_CLOSED") return { outcome: "closed", error: detail };
  return { outcome: "error", error: detail };
}

/** MCP's cancel notification; its `params.requestId` names the request that will get no response. */
const cancelledMethod = "notifications/cancelled";

/**
 * The requests tracked in one direction, by id (1 and "1" apart). A `RequestIdMap`, not a `Map`:
 * entries come and go per request, and a long-lived `Map` used so promotes what it held (see
 * `RequestIdMap`).
 */
export type PendingRequests = RequestIdMap<RequestTracker>;

/** Every tracker of `pending`, and forgets them all. */
export function drainPending(pending: PendingRequests): RequestTracker[] {
  const all = pending.values();
  pending.clear();
  return all;
}

/** Opens and closes the books of requests crossing an instrumented transport. */
export interface RequestBooks {
  /** Where each direction's requests and frames are counted. */
  readonly sites: { readonly incoming: RequestSite; readonly outgoing: RequestSite };
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
  spanFields?: Pick<RequestStart, "protocolVersion" | "networkTransport">,
): RequestBooks {
  const sites = {
    incoming: requestSiteOf(telemetry.metrics, "incoming", context.backend),
    outgoing: requestSiteOf(telemetry.metrics, "outgoing", context.backend),
  };
  return {
    sites,
    start(pending, direction, request) {
      if (pending.size >= maxPending || pending.get(request.id) !== undefined) return undefined;
      const start: { -readonly [K in keyof RequestStart]: RequestStart[K] } = {
        direction,
        method: request.method,
        params: request.params,
        id: request.id,
      };
      if (context.backend !== undefined) start.backend = context.backend;
      if (context.source !== undefined) start.source = context.source;
      if (spanFields !== undefined) addSpanFields(start, spanFields);
      const tracker = startTracking(telemetry, start, sites[direction]);
      pending.set(request.id, tracker);
      return tracker;
    },
    // MCP's cancel notification: the cancelled request gets no response, so its books close here.
    cancel(pending, message) {
      if (!isJSONRPCNotification(message) || message.method !== cancelledMethod) return;
      const params = message.params as { requestId?: unknown; reason?: unknown } | undefined;
      const requestId = params?.requestId;
      if (typeof requestId !== "string" && typeof requestId !== "number") return;
      const tracker = pending.get(requestId);
      if (tracker === undefined) return;
      pending.delete(requestId);
      const reason = typeof params?.reason === "string" ? params.reason : "cancelled by the peer";
      tracker.end({ outcome: "cancelled", error: { message: reason } });
    },
    finish(pending, message) {
      if (!isJSONRPCResponse(message)) return;
      const tracker = pending.get(message.id);
      if (tracker === undefined) return;
      pending.delete(message.id);
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
