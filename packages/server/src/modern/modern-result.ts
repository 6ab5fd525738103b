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

/**
 * A complete modern result: `resultType: "complete"` (every 2026-07-28 result says its type), the
 * server's info in `_meta`, and caching hints where the method is cacheable.
 */
export function completeModernResult(
  method: string,
  result: unknown,
  serverInfo: v2025_11_25.Implementation,
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
    resultType: "complete",
    _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo },
  };
  if (CACHEABLE_METHODS.has(method)) {
    complete.ttlMs = caching.ttlMs;
    complete.cacheScope = caching.cacheScope;
  }
  return complete;
}
