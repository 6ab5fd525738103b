/** Every protocol revision this package has schemas for, oldest first. */
export const PROTOCOL_VERSIONS = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
  "2026-07-28",
] as const;

/** A protocol revision this package knows. */
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** Revisions of the legacy era (an `initialize` handshake, sessions), oldest first. */
export const LEGACY_PROTOCOL_VERSIONS = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
] as const satisfies readonly ProtocolVersion[];

/** A legacy-era revision. */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** Revisions of the modern era (stateless, version and capabilities in every request's `_meta`). */
export const MODERN_PROTOCOL_VERSIONS = [
  "2026-07-28",
] as const satisfies readonly ProtocolVersion[];

/** A modern-era revision. */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/**
 * The revisions Patchbay's clients, servers and transports speak today, newest first: the one list
 * every package uses (the legacy era; the modern era joins it when implemented).
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
] satisfies readonly LegacyProtocolVersion[];

/** The latest revision of the specification (modern era). */
export const LATEST_PROTOCOL_VERSION = "2026-07-28" satisfies ProtocolVersion;

/** The newest handshake-based revision: what a legacy peer is offered and answered by default. */
export const LATEST_LEGACY_PROTOCOL_VERSION = "2025-11-25" satisfies LegacyProtocolVersion;

/**
 * The revision an HTTP server assumes when a request carries no `MCP-Protocol-Version` header and
 * nothing else tells it the version (Streamable HTTP, 2025-06-18 and later).
 */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = "2025-03-26" satisfies LegacyProtocolVersion;

/** The two protocol eras. */
export type ProtocolEra = "legacy" | "modern";

/** Whether `value` is a revision this package knows. */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return typeof value === "string" && (PROTOCOL_VERSIONS as readonly string[]).includes(value);
}

/** Whether `value` is a known legacy-era revision. */
export function isLegacyProtocolVersion(value: unknown): value is LegacyProtocolVersion {
  return (
    typeof value === "string" && (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(value)
  );
}

/** Whether `value` is a known modern-era revision. */
export function isModernProtocolVersion(value: unknown): value is ModernProtocolVersion {
  return (
    typeof value === "string" && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(value)
  );
}

/** The era of a known revision. */
export function getProtocolEra(version: ProtocolVersion): ProtocolEra {
  return isModernProtocolVersion(version) ? "modern" : "legacy";
}
