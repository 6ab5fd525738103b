/** The MCP Apps extension id, as clients and servers list it under `capabilities.extensions`. */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/**
 * Flat `_meta` keys of a tool that name its UI resource besides `_meta.ui.resourceUri`: the
 * deprecated MCP Apps alias and the ChatGPT Apps SDK's output template.
 */
export const FLAT_UI_RESOURCE_KEYS: readonly string[] = ["ui/resourceUri", "openai/outputTemplate"];

/** A tool (or any item) that may carry `_meta`. */
type WithMeta = Readonly<Record<string, unknown>>;

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The resource URIs a tool's `_meta` links to its UI (empty for a tool without a UI). */
export function uiResourceUrisOf(tool: WithMeta): string[] {
  const meta = asRecord(tool._meta);
  if (meta === undefined) return [];
  const uris: string[] = [];
  const nested = asRecord(meta.ui)?.resourceUri;
  if (typeof nested === "string") uris.push(nested);
  for (const key of FLAT_UI_RESOURCE_KEYS) {
    const flat = meta[key];
    if (typeof flat === "string" && !uris.includes(flat)) uris.push(flat);
  }
  return uris;
}

/**
 * The tool with each UI resource link replaced by `expose(uri)`, or removed where `expose` gives
 * `undefined` (the resource is not exposed, so the link would lead to another backend's UI). The
 * tool itself when nothing changes.
 */
export function exposeUiResourceLinks<Tool extends WithMeta>(
  tool: Tool,
  expose: (uri: string) => string | undefined,
): Tool {
  const meta = asRecord(tool._meta);
  if (meta === undefined) return tool;
  let changed = false;
  const copy: Record<string, unknown> = { ...meta };
  const ui = asRecord(meta.ui);
  if (typeof ui?.resourceUri === "string") {
    const exposed = expose(ui.resourceUri);
    if (exposed !== ui.resourceUri) {
      const { resourceUri: _dropped, ...rest } = ui;
      copy.ui = exposed === undefined ? rest : { ...rest, resourceUri: exposed };
      changed = true;
    }
  }
  for (const key of FLAT_UI_RESOURCE_KEYS) {
    const flat = meta[key];
    if (typeof flat !== "string") continue;
    const exposed = expose(flat);
    if (exposed === flat) continue;
    if (exposed === undefined) delete copy[key];
    else copy[key] = exposed;
    changed = true;
  }
  return changed ? { ...tool, _meta: copy } : tool;
}
