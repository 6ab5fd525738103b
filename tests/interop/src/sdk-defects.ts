import type { KnownFailure } from "@patchbay/contract-tests";

// Defects of the SDK 1.32.2, as the suite reports them (see the contract-tests README for each).
export const STDIO_SERVER_IGNORES_STDIN_END =
  "SDK defect: StdioServerTransport listens for data and error on stdin, never end or close, so it never reports that the client went away";
export const STDIO_SERVER_CLOSE_KEEPS_STDOUT_OPEN =
  "SDK defect: StdioServerTransport.close() does not end stdout, so the client never learns that the server closed";
export const ERROR_RESPONSE_WITH_NULL_ID_REFUSED =
  "SDK defect: its JSONRPCMessageSchema refuses an error response with id null, which JSON-RPC 2.0 requires for a parse error (section 5), so the -32700 answer never arrives";
export const HTTP_CLIENT_CLOSE_SENDS_NO_DELETE =
  "SDK defect: StreamableHTTPClientTransport.close() sends no DELETE for the session, so the server never learns that the client went away";
export const HTTP_CLIENT_NEVER_CLOSES_AFTER_SERVER =
  "SDK defect: after the server ends the session, StreamableHTTPClientTransport retries the GET stream and reports 'Maximum reconnection attempts' as an error, never a close";

/** The six cases that wait for the other side to notice a close, declared failing for `reasons`. */
export function closeNotNoticed(reasons: {
  clientClose: string;
  serverClose: string;
}): Record<string, KnownFailure> {
  const atServer = "server side: no close event within 0.5 s after the client closed";
  const atClient = "client side: no close event within 0.5 s after the server closed";
  const clientClose = { reason: reasons.clientClose, failsWith: atServer };
  const serverClose = { reason: reasons.serverClose, failsWith: atClient };
  return {
    "close() twice is harmless and resolves after the close event was emitted": clientClose,
    "when the client closes, each side emits one close event: local at the client, remote at the server":
      clientClose,
    "send() on the server after the client closed rejects with a TransportError": clientClose,
    "when the server closes, each side emits one close event: local at the server, remote at the client":
      serverClose,
    "send() on either side after the server closed rejects with a TransportError": serverClose,
    "a pending request fails with ConnectionClosedError when the server side closes": {
      reason: reasons.serverClose,
      failsWith:
        "client side: the pending request neither failed nor succeeded after the server closed within 0.5 s",
    },
  };
}

/** The case of a Connection on `side` answering invalid text, declared failing for the null id. */
export function nullIdAnswerRefused(side: "client" | "server"): Record<string, KnownFailure> {
  const peer = side === "client" ? "server" : "client";
  return {
    [`a Connection on the ${side} answers text that is not JSON with -32700 and keeps serving`]: {
      reason: ERROR_RESPONSE_WITH_NULL_ID_REFUSED,
      failsWith: `${peer} side: no frame within 0.5 s after text that is not JSON was written to the ${side}`,
    },
  };
}

/** The SDK's transports move one message at a time. */
export const singleMessages = {
  unsupported: "the SDK's Transport carries single messages (MCP 2025-06-18 removed batches)",
};
