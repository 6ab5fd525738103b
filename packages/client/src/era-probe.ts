import { type Connection, JSONRPCError, LocalError, TimeoutError } from "@patchbay/jsonrpc-core";
import { ErrorCode, isModernErrorObject, type v2025_11_25 } from "@patchbay/mcp-types";
import { UnsupportedProtocolVersionError } from "./errors/unsupported-protocol-version-error.js";
import { modernRequestParams } from "./modern-session.js";

/** How long `"auto"` waits for a `server/discover` answer before deciding "legacy" (default). */
export const DEFAULT_DISCOVER_TIMEOUT_MS = 10_000;

/** The outcome of `server/discover`: a legacy server, or a modern one with the agreed revision. */
export type DiscoverOutcome =
  | { readonly era: "legacy" }
  | {
      readonly era: "modern";
      readonly protocolVersion: string;
      readonly discover: Record<string, unknown>;
    };

/** What `discoverServer` needs. */
export interface DiscoverSettings {
  readonly clientInfo: v2025_11_25.Implementation;
  readonly capabilities: v2025_11_25.ClientCapabilities;
  /** The client's modern revisions, preferred first. */
  readonly versions: readonly string[];
  /**
   * How long an answer is waited for before deciding "legacy"; undefined: the connection's request
   * timeout, whose expiry is an error (a channel that answers every request, such as HTTP).
   */
  readonly timeoutMs: number | undefined;
  /** True for `"auto"`: an answer that shows a legacy server is an outcome, not an error. */
  readonly fallback: boolean;
}

/**
 * Sends `server/discover` (MCP 2026-07-28 "Backward compatibility"): a result, or -32022 naming a
 * mutual revision (then asked once more with it, even the same one), means a modern server. With `fallback`, any other
 * error (whatever its code), no answer in `timeoutMs` (when set), or an HTTP 400/404/405 means a legacy server; the
 * decision never keys on one error code. Other failures (closed, unauthorised) are thrown.
 */
export async function discoverServer(
  target: Connection,
  settings: DiscoverSettings,
): Promise<DiscoverOutcome> {
  let version = settings.versions[0];
  for (let attempt = 0; version !== undefined && attempt < 2; attempt += 1) {
    let result: Record<string, unknown>;
    try {
      result = (await target.request(
        "server/discover",
        modernRequestParams(undefined, { ...settings, protocolVersion: version }),
        settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs },
      )) as Record<string, unknown>;
    } catch (error) {
      const supported = unsupportedVersionList(error);
      if (supported === undefined) {
        if (settings.fallback && showsLegacyServer(error, settings.timeoutMs !== undefined)) {
          return { era: "legacy" };
        }
        throw error;
      }
      // Asked once more even when the mutual revision is the one just refused: the server names
      // it as supported, so the refusal may have been a transient one (2 attempts in all).
      const mutual = settings.versions.find((candidate) => supported.includes(candidate));
      if (mutual !== undefined) {
        version = mutual;
        continue;
      }
      return refuse(settings, supported);
    }
    const supported = Array.isArray(result.supportedVersions)
      ? (result.supportedVersions as unknown[])
      : [version];
    if (supported.includes(version))
      return { era: "modern", protocolVersion: version, discover: result };
    const mutual = settings.versions.find((candidate) => supported.includes(candidate));
    if (mutual === undefined) return refuse(settings, supported.map(String));
    version = mutual;
  }
  return refuse(settings, []);
}

/** No mutual modern revision: legacy for `"auto"` (its `initialize` settles it), else an error. */
function refuse(settings: DiscoverSettings, supported: readonly string[]): DiscoverOutcome {
  if (settings.fallback) return { era: "legacy" };
  throw new UnsupportedProtocolVersionError(
    supported.length === 0 ? "(none)" : supported.join(", "),
    settings.versions,
  );
}

/** `data.supported` of a -32022 `UnsupportedProtocolVersion` error, else undefined. */
function unsupportedVersionList(error: unknown): string[] | undefined {
  if (!JSONRPCError.isInstance(error) || error.code !== ErrorCode.UnsupportedProtocolVersion) {
    return undefined;
  }
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? supported.filter((item) => typeof item === "string") : [];
}

/** Whether a failed probe shows a legacy server (see `discoverServer`). */
function showsLegacyServer(error: unknown, silenceMeansLegacy: boolean): boolean {
  if (JSONRPCError.isInstance(error)) return !isModernErrorObject({ code: error.code });
  if (TimeoutError.isInstance(error)) return silenceMeansLegacy;
  // An HTTP transport's status error (duck-typed: this package imports no transport).
  const status = LocalError.isInstance(error) ? (error as { status?: unknown }).status : undefined;
  return status === 400 || status === 404 || status === 405;
}
