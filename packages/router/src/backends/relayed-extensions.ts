import { UI_EXTENSION_ID } from "../namespacing/ui-resource-links.js";

/**
 * Extensions a backend is told its clients support: only those the gateway passes through as they
 * are (MCP Apps: UI resources and tool links are forwarded, rewritten consistently when namespaced).
 */
const RELAYED_EXTENSIONS: readonly string[] = [UI_EXTENSION_ID];

/** What the gateway declares for MCP Apps while no client is known (as for sampling and roots). */
const UNKNOWN_CLIENT_EXTENSIONS = {
  [UI_EXTENSION_ID]: { mimeTypes: ["text/html;profile=mcp-app"] },
};

type Extensions = Record<string, Record<string, unknown>>;

function extensionsOf(capabilities: Readonly<Record<string, unknown>>): Extensions {
  const extensions = capabilities.extensions;
  return typeof extensions === "object" && extensions !== null && !Array.isArray(extensions)
    ? (extensions as Extensions)
    : {};
}

/**
 * The `extensions` a backend's client declares: those of `RELAYED_EXTENSIONS` the clients behind
 * the gateway declared, as they declared them, or MCP Apps when no client is known yet. Empty when
 * none.
 */
export function relayedExtensions(
  capabilities: Readonly<Record<string, unknown>> | undefined,
): Extensions {
  if (capabilities === undefined) return UNKNOWN_CLIENT_EXTENSIONS;
  const declared = extensionsOf(capabilities);
  const relayed: Extensions = {};
  for (const id of RELAYED_EXTENSIONS) {
    const settings = declared[id];
    if (typeof settings === "object" && settings !== null) relayed[id] = settings;
  }
  return relayed;
}

/**
 * The capabilities of several clients as one: each capability as the last client declaring it
 * gave it, and `extensions` joined, so that a shared backend learns of an extension any of its
 * clients supports.
 */
export function mergeClientCapabilities(
  declared: readonly Readonly<Record<string, unknown>>[],
): Record<string, unknown> {
  const merged: Record<string, unknown> = Object.assign({}, ...declared);
  const extensions: Extensions = Object.assign({}, ...declared.map(extensionsOf));
  if (Object.keys(extensions).length > 0) merged.extensions = extensions;
  return merged;
}
