import type { RequestEnd } from "./request-tracker.js";

/** Reads how a request ended from its JSON-RPC result: `tool_error` for MCP's `isError: true`. */
export function outcomeOfResult(result: unknown): RequestEnd {
  if (
    result !== null &&
    typeof result === "object" &&
    (result as { isError?: unknown }).isError === true
  ) {
    return { outcome: "tool_error", error: { message: "tool returned isError: true" } };
  }
  return { outcome: "success" };
}

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
