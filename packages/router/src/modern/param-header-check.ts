import { type FrameInfo, JSONRPCError } from "@patchbay/jsonrpc-core";
import {
  MCP_ERROR_CODES,
  type ParamHeaderDeclaration,
  paramHeaderMismatch,
  requestHeaderReader,
  scanParamHeaders,
} from "@patchbay/mcp-types";
import type { NamedItem } from "../catalogue/build-catalogue.js";

/** Each catalogue's tools' `x-mcp-header` parameters, read once per list. */
const declarationsByList = new WeakMap<
  readonly NamedItem[],
  ReadonlyMap<string, readonly ParamHeaderDeclaration[]>
>();

/**
 * Checks the `Mcp-Param-*` headers of a modern `tools/call` that reached the front over HTTP
 * against its arguments, for the `x-mcp-header` parameters of the tool as the caller's catalogue
 * lists it; throws -32020 (HTTP 400) on a mismatch. The call to the backend carries the headers
 * again, mirrored by the client transport from the backend's own `tools/list`.
 */
export function checkParamHeaders(
  tools: readonly NamedItem[],
  params: Record<string, unknown>,
  info: FrameInfo | undefined,
): void {
  const headers = requestHeaderReader(info);
  if (headers === undefined || typeof params.name !== "string") return;
  const declarations = declarationsOf(tools).get(params.name);
  if (declarations === undefined) return;
  const problem = paramHeaderMismatch(declarations, params.arguments, headers);
  if (problem !== undefined) {
    throw new JSONRPCError(MCP_ERROR_CODES.HeaderMismatch, `Header mismatch: ${problem}`);
  }
}

function declarationsOf(
  tools: readonly NamedItem[],
): ReadonlyMap<string, readonly ParamHeaderDeclaration[]> {
  let found = declarationsByList.get(tools);
  if (found === undefined) {
    const map = new Map<string, readonly ParamHeaderDeclaration[]>();
    for (const tool of tools) {
      const scan = scanParamHeaders(tool.inputSchema);
      if (scan.ok && scan.declarations.length > 0) map.set(tool.name, scan.declarations);
    }
    found = map;
    declarationsByList.set(tools, found);
  }
  return found;
}
