import { PROTOCOL_VERSIONS } from "@patchbay/mcp-types";

/**
 * The revisions a server serves (`ServerOptions.protocolVersions`): every known revision by
 * default; a list must be non-empty and name only revisions `@patchbay/mcp-types` knows.
 */
export function checkServedVersions(requested: readonly string[] | undefined): readonly string[] {
  if (requested === undefined) return [...PROTOCOL_VERSIONS];
  const known: readonly string[] = PROTOCOL_VERSIONS;
  const unknown = requested.filter((version) => !known.includes(version));
  if (unknown.length > 0 || requested.length === 0) {
    throw new RangeError(
      `protocolVersions must list revisions from ${known.join(", ")}; got ${
        requested.length === 0 ? "an empty list" : unknown.join(", ")
      }`,
    );
  }
  return [...new Set(requested)];
}
