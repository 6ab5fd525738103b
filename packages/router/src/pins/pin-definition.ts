import { canonicalJson } from "./canonical-json.js";
import { sha256Hex } from "./sha256.js";

/** What a pin covers: a backend's tool, prompt or resource template. */
export type PinKind = "tool" | "prompt" | "resourceTemplate";

/** The fields each kind's pin covers; the rest of an item (title, icons, `_meta`) is not pinned. */
export const PINNED_FIELDS: Readonly<Record<PinKind, readonly string[]>> = {
  tool: ["name", "description", "inputSchema", "outputSchema", "annotations"],
  prompt: ["name", "description", "arguments"],
  resourceTemplate: ["uriTemplate", "name", "description", "mimeType"],
};

/** The pinned fields of an item as its backend published it (absent fields stay absent). */
export function pinnedDefinition(
  kind: PinKind,
  item: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const definition: Record<string, unknown> = {};
  for (const field of PINNED_FIELDS[kind]) {
    if (item[field] !== undefined) definition[field] = item[field];
  }
  return definition;
}

/** The SHA-256 (hex) of a definition's canonical JSON (keys sorted). */
export function pinHash(definition: Readonly<Record<string, unknown>>): string {
  return sha256Hex(canonicalJson(definition));
}

/** What identifies an item within its backend: a template's URI template, else its name. */
export function identifierOf(kind: PinKind, item: Readonly<Record<string, unknown>>): string {
  return String(kind === "resourceTemplate" ? item.uriTemplate : item.name);
}

/**
 * `item` with its pinned fields replaced by `definition`'s (a field the pinned definition lacks is
 * removed), the rest as the backend sends it now.
 */
export function withPinnedFields<Item extends Readonly<Record<string, unknown>>>(
  kind: PinKind,
  item: Item,
  definition: Readonly<Record<string, unknown>>,
): Item {
  const served: Record<string, unknown> = { ...item };
  for (const field of PINNED_FIELDS[kind]) {
    if (definition[field] === undefined) delete served[field];
    else served[field] = definition[field];
  }
  return served as Item;
}
