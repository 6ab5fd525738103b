import { type FrameInfo, JSONRPCError } from "@patchbay/jsonrpc-core";
import { MCP_ERROR_CODES, paramHeaderMismatch, requestHeaderReader } from "@patchbay/mcp-types";
import type { SessionHost } from "../session-host.js";

/**
 * Checks the `Mcp-Param-*` headers of a modern `tools/call` that came over HTTP against its
 * arguments, for the tool's `x-mcp-header` parameters; throws -32020 (HTTP 400) on a mismatch.
 * A request without HTTP headers (stdio) or for an unknown tool is left to the handler.
 */
export function checkParamHeaders(
  host: SessionHost,
  params: Record<string, unknown>,
  info: FrameInfo | undefined,
): void {
  const headers = requestHeaderReader(info);
  if (headers === undefined || typeof params.name !== "string") return;
  const entry = host.tools.get(params.name);
  if (entry === undefined || entry.paramHeaders.length === 0) return;
  const problem = paramHeaderMismatch(entry.paramHeaders, params.arguments, headers);
  if (problem !== undefined)
    throw new JSONRPCError(MCP_ERROR_CODES.HeaderMismatch, `Header mismatch: ${problem}`);
}
