import type { Connection } from "@patchbay/jsonrpc-core";
import {
  isModernProtocolVersion,
  MODERN_PROTOCOL_VERSIONS,
  type v2025_11_25,
} from "@patchbay/mcp-types";
import type { ClientOptions } from "./client-types.js";
import { DEFAULT_DISCOVER_TIMEOUT_MS, discoverServer } from "./era-probe.js";
import { initializeSession } from "./initialize-session.js";
import { ModernSession } from "./modern-session.js";

/** What `connect` learnt: the `initialize` result (or its modern equivalent) and the era. */
export interface OpenedSession {
  readonly result: v2025_11_25.InitializeResult;
  /** Set when the server is spoken to in the modern era. */
  readonly modern: ModernSession | undefined;
}

/**
 * Opens the session in the era `options.protocolEra` asks for: `"legacy"` runs `initialize`;
 * `"modern"` runs `server/discover`; `"auto"` uses the cached verdict for this server, or probes
 * with `server/discover` and falls back to `initialize` (then caches what it found). Over a channel
 * that answers every request (`Transport.answersEveryRequest`, HTTP), no answer in
 * `discoverTimeoutMs` is not a legacy server: the probe waits as long as any request.
 */
export async function openSession(
  target: Connection,
  clientInfo: v2025_11_25.Implementation,
  capabilities: v2025_11_25.ClientCapabilities,
  options: ClientOptions,
  channel: { readonly silenceMeansLegacy: boolean } = { silenceMeansLegacy: true },
): Promise<OpenedSession> {
  const era = options.protocolEra ?? "legacy";
  const cached = era === "auto" ? options.eraCache?.store.get(options.eraCache.key) : undefined;
  if (era !== "legacy" && cached !== "legacy") {
    let outcome: Awaited<ReturnType<typeof discoverServer>>;
    try {
      outcome = await discoverServer(target, {
        clientInfo,
        capabilities,
        versions: modernVersions(options.protocolVersions),
        // Over HTTP a legacy server answers at once (400, 404, 405): a slow answer (a cold
        // start, a sign-in under way) is waited for like any request, not taken for a legacy one.
        timeoutMs: channel.silenceMeansLegacy
          ? (options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS)
          : undefined,
        fallback: era === "auto" && cached === undefined,
      });
    } catch (error) {
      await target.close();
      throw error;
    }
    if (outcome.era === "modern") {
      if (era === "auto") options.eraCache?.store.set(options.eraCache.key, "modern");
      const session = new ModernSession(
        outcome.protocolVersion,
        outcome.discover,
        clientInfo,
        capabilities,
      );
      return { result: session.toInitializeResult(), modern: session };
    }
  }
  const result = await initializeSession(target, clientInfo, capabilities, options.protocolVersion);
  if (era === "auto") options.eraCache?.store.set(options.eraCache.key, "legacy");
  await target.notify("notifications/initialized");
  return { result, modern: undefined };
}

/** The modern revisions a client offers, newest first (default: every one this package knows). */
function modernVersions(listed: readonly string[] | undefined): string[] {
  const versions = (listed ?? MODERN_PROTOCOL_VERSIONS).filter((version) =>
    isModernProtocolVersion(version),
  );
  return [...versions].sort().reverse();
}
