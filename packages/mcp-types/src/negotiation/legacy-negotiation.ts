import {
  isLegacyProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
} from "../versions.js";

/**
 * The `protocolVersion` a legacy server answers to `initialize` (all legacy revisions): the
 * requested version when supported, otherwise the server's latest legacy version (not an error;
 * the client disconnects if it cannot use it). `supported` defaults to every legacy revision.
 */
export function negotiateLegacyProtocolVersion(
  requested: unknown,
  supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS,
): string {
  if (typeof requested === "string" && supported.includes(requested)) return requested;
  return latestLegacyVersion(supported);
}

/** The newest legacy revision in `supported` (revision names sort by date). */
export function latestLegacyVersion(supported: readonly string[]): string {
  const legacy = supported.filter((version) => isLegacyProtocolVersion(version)).sort();
  const latest = legacy[legacy.length - 1];
  if (latest !== undefined) return latest;
  const anyVersion = [...supported].sort().at(-1);
  return anyVersion ?? LATEST_LEGACY_PROTOCOL_VERSION;
}

/**
 * Whether a client that asked for `requested` can use the version the server answered (a client
 * SHOULD disconnect otherwise). `supported` is the client's list.
 */
export function isNegotiatedVersionAcceptable(
  answered: unknown,
  supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS,
): boolean {
  return typeof answered === "string" && supported.includes(answered);
}
