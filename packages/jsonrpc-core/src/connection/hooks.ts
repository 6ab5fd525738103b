import type { JSONRPCId, JSONRPCNotification, JSONRPCParams } from "../messages.js";

/**
 * How the protocol above JSON-RPC cancels requests (for MCP: `notifications/cancelled`).
 * jsonrpc-core knows no protocol names; the protocol layer fills these in.
 */
export interface CancellationHooks {
  /** Builds the notification sent when an outgoing request is aborted or times out. */
  createNotification(id: JSONRPCId, reason?: string): JSONRPCNotification;
  /** For an incoming cancel notification, the id of the request to abort; else `undefined`. */
  readRequestId(notification: JSONRPCNotification): JSONRPCId | undefined;
}

/** How the protocol above JSON-RPC reports progress (for MCP: `_meta.progressToken`). */
export interface ProgressHooks {
  /** Returns the params of an outgoing request with `token` attached. */
  attachToken(params: JSONRPCParams | undefined, token: JSONRPCId): JSONRPCParams;
  /** For an incoming progress notification, its token; else `undefined`. */
  readToken(notification: JSONRPCNotification): JSONRPCId | undefined;
}
