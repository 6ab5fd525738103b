import { SERVER_INFO_META_KEY, type v2025_11_25 } from "@patchbay/mcp-types";

/** Methods whose modern results carry caching hints (MCP 2026-07-28 "Caching"). */
const CACHEABLE_METHODS = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** Caching hints of modern results (every page of a list gets its own `ttlMs`). */
export interface CachingHints {
  /** How long a client may reuse a result, in milliseconds (default 0: do not reuse). */
  readonly ttlMs: number;
  /** Who may share a cached result (default `private`). */
  readonly cacheScope: "public" | "private";
}

/** `input_required` (MRTR) and `task` (a created task) say so; every other result is `complete`. */
function resultTypeOf(declared: unknown): string {
  return declared === "input_required" || declared === "task" ? declared : "complete";
}

/**
 * A modern result as it goes on the wire: its `resultType` (every 2026-07-28 result says its type:
 * `input_required` when it says so, else `complete`), the server's info in `_meta` beside the keys
 * already there, and caching hints where the method is cacheable and the result complete. A gateway
 * completes the results it relays with it too.
 */
export function completeModernResult(
  method: string,
  result: unknown,
  serverInfo: v2025_11_25.Implementation | Readonly<Record<string, unknown>>,
  caching: CachingHints,
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
    resultType: resultTypeOf(body.resultType),
    _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo },
  };
  if (CACHEABLE_METHODS.has(method) && complete.resultType === "complete") {
    complete.ttlMs = caching.ttlMs;
    complete.cacheScope = caching.cacheScope;
  }
  return complete;
}
