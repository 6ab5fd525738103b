import type { ProtocolEra } from "@patchbay/mcp-types";

/**
 * Which era a client speaks: `"legacy"` (default) sends `initialize` as before; `"modern"` speaks
 * 2026-07-28 only (`server/discover`, per-request `_meta`); `"auto"` probes with `server/discover`
 * and falls back to `initialize` when the answer shows a legacy server (MCP 2026-07-28 "Backward
 * compatibility").
 */
export type ProtocolEraOption = "auto" | "legacy" | "modern";

/** Where verdicts of `"auto"` are kept between connections (a `Map` will do). */
export interface EraStore {
  get(key: string): ProtocolEra | undefined;
  set(key: string, era: ProtocolEra): unknown;
}

/**
 * Caches the era verdict of one server (MCP 2026-07-28: cache it per server process or origin):
 * `key` names the server (a URL, a command line), `store` is shared by the clients that talk to it.
 */
export interface EraCache {
  readonly store: EraStore;
  readonly key: string;
}
