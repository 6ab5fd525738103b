import type { Backend } from "../backends/backend.js";
import type { NameCodec } from "../namespacing/qualified-name.js";

/**
 * True when one of `backends` lists a tool that would be exposed as `exposedName`, whatever the
 * filters (a backend's `tools.deny`, a profile's globs or backends) say: the audit log then calls
 * a refused call `tool_not_allowed` rather than `unknown_tool`. Runs only for refused calls.
 */
export function isListedAnywhere(
  exposedName: string,
  backends: readonly Backend[],
  codec: NameCodec,
): boolean {
  return backends.some((backend) => {
    const listing = backend.listing;
    return (
      listing?.tools?.some((tool) => codec.format(listing.namespace, tool.name) === exposedName) ===
      true
    );
  });
}
