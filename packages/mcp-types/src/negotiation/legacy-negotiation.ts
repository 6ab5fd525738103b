import {
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
} from "../versions.js";

const FIRST_MODERN_PROTOCOL_VERSION: string = MODERN_PROTOCOL_VERSIONS[0];

/**
 * The `protocolVersion` a legacy server answers to `initialize` (all legacy revisions): the
 * requested version when supported, otherwise the server's latest legacy version (not an error;
 * the client disconnects if it cannot use it). `supported` defaults to every legacy revision.
 */
export function negotiateLegacyProtocolVersion(
  requested: unknown,
  supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS,
): string {
  const legacy = supported.filter((version) => !isModernVersionString(version));
  if (typeof requested === "string" && legacy.includes(requested)) return requested;
  return latestLegacyVersion(supported);
}

/** Revision names are ISO dates: anything from 2026-07-28 on belongs to the modern era. */
function isModernVersionString(version: string): boolean {
  return version >= FIRST_MODERN_PROTOCOL_VERSION;
}

/** The newest legacy revision in `supported` (revision names sort by date). */
export function latestLegacyVersion(supported: readonly string[]): string {
  const legacy = supported.filter((version) => !isModernVersionString(version)).sort();
  return legacy.at(-1) ?? LATEST_LEGACY_PROTOCOL_VERSION;
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
