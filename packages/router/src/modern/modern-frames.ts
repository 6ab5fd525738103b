import {
  type FrameInfo,
  isBatch,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  RequestIdMap,
  type Transport,
  type TransportTap,
  tapTransport,
} from "@patchbay/jsonrpc-core";
import { ErrorCode, PROTOCOL_VERSION_META_KEY } from "@patchbay/mcp-types";

/** Answers one modern request that came on a transport. */
export type ModernFrameHandler = (
  message: JSONRPCRequest | JSONRPCNotification,
  context: {
    signal: AbortSignal;
    info: FrameInfo;
    notify(method: string, params: Record<string, unknown>): void;
  },
) => Promise<JSONRPCResponse | undefined>;

/** Most modern requests in flight at once on one transport. */
export const MAX_MODERN_REQUESTS_PER_TRANSPORT = 1000;

/**
 * One transport carrying both eras (MCP 2026-07-28 stdio: a dual-era server tells them apart by how
 * the client opens). Until a legacy `initialize` passes, a request that is `server/discover` or
 * carries `_meta["io.modelcontextprotocol/protocolVersion"]` goes to `modern`, which answers it on
 * the transport (notifications it sends for the request go first; the gateway never sends a modern
 * client a request); `notifications/cancelled` naming such a request aborts it. Every other frame
 * reaches the legacy session on the returned transport, untouched.
 */
export function splitModernFrames(transport: Transport, modern: ModernFrameHandler): Transport {
  // Not a `Map`: an entry per request, and a long-lived `Map` used so promotes what it held.
  const inFlight = new RequestIdMap<AbortController>();

  const serveModern = (message: JSONRPCRequest | JSONRPCNotification, info: FrameInfo) => {
    const id = "id" in message ? message.id : undefined;
    if (
      id !== undefined &&
      (inFlight.has(id) || inFlight.size >= MAX_MODERN_REQUESTS_PER_TRANSPORT)
    ) {
      const reason = inFlight.has(id)
        ? "a request with this id is in flight"
        : `more than ${MAX_MODERN_REQUESTS_PER_TRANSPORT} modern requests in flight`;
      transport
        .send({
          jsonrpc: "2.0",
          id,
          error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${reason}` },
        })
        .catch(() => {});
      return;
    }
    const aborter = new AbortController();
    if (id !== undefined) inFlight.set(id, aborter);
    const notify = (method: string, params: Record<string, unknown>) => {
      if (!aborter.signal.aborted)
        transport.send({ jsonrpc: "2.0", method, params }).catch(() => {});
    };
    modern(message, { signal: aborter.signal, info, notify })
      .then((answer) => {
        if (answer !== undefined && !aborter.signal.aborted) return transport.send(answer);
      })
      .catch(() => {})
      .finally(() => {
        if (id !== undefined) inFlight.delete(id, aborter);
      });
  };

  const hooks: TransportTap = {
    incoming(frame, info) {
      if (isBatch(frame)) return frame;
      if ("method" in frame && frame.method === "initialize") {
        // Legacy for good: every later frame passes untouched, with no hook to call (set to
        // undefined, not deleted: see TransportTap.incoming).
        hooks.incoming = undefined;
      } else if (isModern(frame)) {
        serveModern(frame, info);
        return undefined;
      } else if (cancelsModern(frame, inFlight)) return undefined;
      return frame;
    },
    closed() {
      for (const aborter of inFlight.values()) aborter.abort(new Error("the transport closed"));
      inFlight.clear();
    },
  };
  return tapTransport(transport, hooks);
}

function isModern(message: JSONRPCMessage): message is JSONRPCRequest {
  if (!("method" in message) || !("id" in message)) return false;
  if (message.method === "server/discover") return true;
  const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === "object" && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

function cancelsModern(message: JSONRPCMessage, inFlight: RequestIdMap<AbortController>): boolean {
  if (!("method" in message) || "id" in message || message.method !== "notifications/cancelled") {
    return false;
  }
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  const aborter =
    typeof requestId === "string" || typeof requestId === "number"
      ? inFlight.get(requestId)
      : undefined;
  if (aborter === undefined) return false;
  inFlight.delete(requestId as JSONRPCId);
  aborter.abort(new Error("the client cancelled the request"));
  return true;
}
