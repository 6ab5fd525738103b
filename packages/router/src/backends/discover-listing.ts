import type { Client } from "@patchbay/client";
import type {
  BackendListing,
  NamedItem,
  ResourceItem,
  ResourceTemplateItem,
} from "../catalogue/build-catalogue.js";

/** The kinds of list a backend announces changes of, with their notification. */
export const LIST_KINDS = [
  ["tools", "notifications/tools/list_changed"],
  ["prompts", "notifications/prompts/list_changed"],
  ["resources", "notifications/resources/list_changed"],
] as const;

/** One kind of list. */
export type ListKind = (typeof LIST_KINDS)[number][0];

/**
 * Reads one kind of list from a backend (every page) into a copy of `base`; a kind the backend
 * does not declare is empty.
 */
export async function discoverListing(
  target: Client,
  kind: ListKind,
  base: BackendListing,
  timeoutMs: number,
): Promise<BackendListing> {
  const capabilities = target.serverCapabilities ?? {};
  const options = { timeoutMs };
  if (kind === "tools") {
    const tools = capabilities.tools ? await target.listAllTools(options) : [];
    return { ...base, tools: tools as unknown as NamedItem[] };
  }
  if (kind === "prompts") {
    const prompts = capabilities.prompts ? await target.listAllPrompts(options) : [];
    return { ...base, prompts: prompts as unknown as NamedItem[] };
  }
  const resources = capabilities.resources ? await target.listAllResources(options) : [];
  // Some servers answer -32601 to templates/list though they declare resources.
  const templates = capabilities.resources
    ? await target.listAllResourceTemplates(options).catch(() => [])
    : [];
  return {
    ...base,
    resources: resources as unknown as ResourceItem[],
    resourceTemplates: templates as unknown as ResourceTemplateItem[],
  };
}
