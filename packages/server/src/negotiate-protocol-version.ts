import {
  isModernProtocolVersion as isModernVersion,
  LATEST_LEGACY_PROTOCOL_VERSION as LATEST_LEGACY,
  LEGACY_PROTOCOL_VERSIONS,
  negotiateLegacyProtocolVersion,
} from "@patchbay/mcp-types";

/** The newest handshake-based revision: what the server answers an unknown version with. */
export const LATEST_LEGACY_PROTOCOL_VERSION: string = LATEST_LEGACY;

/** Revisions a session accepts in `initialize`, oldest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = LEGACY_PROTOCOL_VERSIONS;

/**
 * The version a server answers `initialize` with: the requested one when supported, otherwise its
 * latest (MCP "Version Negotiation": the server MUST respond with another version it supports).
 */
export function negotiateProtocolVersion(requested: string): string {
  return negotiateLegacyProtocolVersion(requested);
}

/** True for a modern-era (stateless) revision. */
export function isModernProtocolVersion(version: string | undefined): boolean {
  return isModernVersion(version);
}
