import {
  type Connection,
  JSONRPCError,
  type JSONRPCParams,
  MethodNotFoundError,
  type RequestContext,
} from "@patchbay/jsonrpc-core";
import { detectEraFromFirstMessage } from "@patchbay/mcp-types";
import type { ModernEndpoint } from "./modern-dispatcher.js";

/**
 * Whether a request that arrived before `initialize` on a connection (stdio, WebSocket, memory)
 * belongs to the modern era: `server/discover`, or any request carrying
 * `_meta["io.modelcontextprotocol/protocolVersion"]` (MCP 2026-07-28 "dual-era servers pick by how
 * the client opens").
 */
export function isModernConnectionRequest(method: string, params: unknown): boolean {
  return detectEraFromFirstMessage({ jsonrpc: "2.0", id: 0, method, params }) === "modern";
}

/**
 * Answers one modern request that arrived on a connection through the session-less modern path:
 * related notifications (progress, log, subscription notifications) go back on the same connection
 * tagged with the request's id; the server never sends a request (2026-07-28 stdio: the server
 * MUST NOT write requests; client input goes through `input_required` results).
 */
export async function serveModernOnConnection(
  modern: ModernEndpoint,
  connection: Connection,
  params: JSONRPCParams | undefined,
  context: RequestContext,
): Promise<unknown> {
  const response = await modern.handle(
    params === undefined
      ? { jsonrpc: "2.0", id: context.id, method: context.method }
      : { jsonrpc: "2.0", id: context.id, method: context.method, params },
    {
      signal: context.signal,
      info: context.info,
      notify(method, notificationParams) {
        if (connection.closed) return;
        void connection
          .notify(method, notificationParams as JSONRPCParams, { relatedRequestId: context.id })
          .catch(() => undefined);
      },
    },
  );
  if (response === undefined) throw new MethodNotFoundError(`Method not found: ${context.method}`);
  if ("error" in response) {
    throw new JSONRPCError(response.error.code, response.error.message, response.error.data);
  }
  return response.result;
}
