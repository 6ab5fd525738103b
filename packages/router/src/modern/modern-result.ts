import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { SERVER_INFO_META_KEY } from "@patchbay/mcp-types";
import { INVALID_PARAMS } from "../errors/map-error.js";

/** Caching hints of the modern front's cacheable results (MCP 2026-07-28 "Caching"). */
export interface ModernCaching {
  /** How long a client may reuse a result, in milliseconds (default 0: do not reuse). */
  readonly ttlMs: number;
  /** Who may share a cached result (default `private`: lists vary by profile and token). */
  readonly cacheScope: "public" | "private";
}

const CACHEABLE_METHODS = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** Legacy "resource not found" (2024-11-05..2025-11-25), which 2026-07-28 no longer emits. */
const LEGACY_RESOURCE_NOT_FOUND = -32002;

/**
 * A modern result: `resultType: "complete"` unless it says otherwise, the gateway's info in
 * `_meta` (beside the backend's own keys), and caching hints where the method is cacheable.
 */
export function completeModernResult(
  method: string,
  result: unknown,
  serverInfo: Readonly<Record<string, unknown>>,
  caching: ModernCaching,
): Record<string, unknown> {
  const body = (typeof result === "object" && result !== null ? result : {}) as Record<
    string,
    unknown
  >;
  const meta = (typeof body._meta === "object" && body._meta !== null ? body._meta : {}) as Record<
    string,
    unknown
  >;
  const complete: Record<string, unknown> = {
    ...body,
    resultType: body.resultType === "input_required" ? "input_required" : "complete",
    _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo },
  };
  if (CACHEABLE_METHODS.has(method) && complete.resultType === "complete") {
    complete.ttlMs = caching.ttlMs;
    complete.cacheScope = caching.cacheScope;
  }
  return complete;
}

/** The wire error object of a failure, as a modern client should see it. */
export function modernErrorObject(error: unknown): {
  code: number;
  message: string;
  data?: unknown;
} {
  if (!JSONRPCError.isInstance(error)) {
    return { code: -32603, message: error instanceof Error ? error.message : String(error) };
  }
  // 2026-07-28: resource not found is -32602; a legacy backend's -32002 is translated.
  const code = error.code === LEGACY_RESOURCE_NOT_FOUND ? INVALID_PARAMS : error.code;
  const object: { code: number; message: string; data?: unknown } = {
    code,
    message: error.message,
  };
  if (error.data !== undefined) object.data = error.data;
  return object;
}
