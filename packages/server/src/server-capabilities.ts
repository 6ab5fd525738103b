import type { v2025_11_25 } from "@patchbay/mcp-types";

/** How much of each kind the server has registered when a client initializes. */
export interface RegisteredCounts {
  readonly tools: number;
  readonly resources: number;
  readonly resourceTemplates: number;
  readonly prompts: number;
}

/**
 * The capabilities a session declares: a feature appears once something of its kind is registered
 * (or `declared` names it, for a server that will register later), always with `listChanged`
 * because registrations may change while sessions are open. `logging` is always declared: every
 * handler can log. `completions` comes with prompts or templates, which are what completes.
 */
export function deriveServerCapabilities(
  counts: RegisteredCounts,
  declared: v2025_11_25.ServerCapabilities = {},
): v2025_11_25.ServerCapabilities {
  const capabilities: v2025_11_25.ServerCapabilities = { logging: {} };
  const hasResources = counts.resources + counts.resourceTemplates > 0;
  if (counts.tools > 0 || declared.tools !== undefined) {
    capabilities.tools = { listChanged: true, ...declared.tools };
  }
  if (hasResources || declared.resources !== undefined) {
    capabilities.resources = { subscribe: true, listChanged: true, ...declared.resources };
  }
  if (counts.prompts > 0 || declared.prompts !== undefined) {
    capabilities.prompts = { listChanged: true, ...declared.prompts };
  }
  if (counts.prompts + counts.resourceTemplates > 0 || declared.completions !== undefined) {
    capabilities.completions = { ...declared.completions };
  }
  const { tools: _t, resources: _r, prompts: _p, completions: _c, ...rest } = declared;
  return { ...capabilities, ...rest };
}
