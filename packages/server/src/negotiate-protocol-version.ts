const LEGACY_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
const MODERN_VERSIONS = ["2026-07-28"] as const;

/** The newest handshake-based revision: what the server answers an unknown version with. */
export const LATEST_LEGACY_PROTOCOL_VERSION = "2025-11-25";

/** Revisions a session accepts in `initialize`, oldest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = LEGACY_VERSIONS;

/**
 * The version a server answers `initialize` with: the requested one when supported, otherwise its
 * latest (MCP "Version Negotiation": the server MUST respond with another version it supports).
 */
export function negotiateProtocolVersion(requested: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_LEGACY_PROTOCOL_VERSION;
}

/** True for a modern-era (stateless) revision. */
export function isModernProtocolVersion(version: string | undefined): boolean {
  return version !== undefined && (MODERN_VERSIONS as readonly string[]).includes(version);
}
