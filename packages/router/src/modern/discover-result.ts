import { TASKS_EXTENSION_ID } from "@patchbay/mcp-types";
import type { RouterSession } from "../sessions/router-session.js";
import { offersLegacyTasks } from "../tasks/legacy-tasks.js";
import type { ModernSettings } from "./modern-settings.js";

type Capabilities = Record<string, Record<string, unknown> | undefined>;

/**
 * `server/discover` of the modern front, from the aggregated catalogue: the capabilities the union
 * of the running backends the caller sees supports (tools always, for the gateway's own tools),
 * each list with `listChanged` (the gateway tells of changes through `subscriptions/listen`), and
 * the combined instructions the legacy session was initialized with.
 */
export function discoverResult(
  session: RouterSession,
  settings: ModernSettings,
  instructions?: string,
): { supportedVersions: string[]; capabilities: Capabilities; instructions?: string } {
  const union: Record<string, Record<string, unknown>> = {};
  for (const backend of session.backends()) {
    const declared =
      backend.status === "running" ? backend.initializeResult?.capabilities : undefined;
    for (const [name, value] of Object.entries(declared ?? {})) {
      if (typeof value === "object" && value !== null) {
        union[name] = { ...union[name], ...(value as Record<string, unknown>) };
      }
    }
  }
  const capabilities: Capabilities = { tools: { listChanged: true } };
  if (union.prompts !== undefined) capabilities.prompts = { listChanged: true };
  if (union.resources !== undefined) {
    capabilities.resources = {
      listChanged: true,
      ...(union.resources.subscribe === true ? { subscribe: true } : {}),
    };
  }
  if (union.completions !== undefined) capabilities.completions = {};
  if (union.logging !== undefined) capabilities.logging = {};
  // Tasks pass through to the backends that support them (routed by task id, see front-tasks),
  // a 2025-11-25 backend's tasks bridged (see modern-legacy-bridge).
  const extensions = union.extensions as Record<string, unknown> | undefined;
  if (extensions?.[TASKS_EXTENSION_ID] !== undefined || offersLegacyTasks(union)) {
    capabilities.extensions = { [TASKS_EXTENSION_ID]: {} };
  }
  return {
    supportedVersions: [...settings.protocolVersions],
    capabilities,
    ...(instructions === undefined ? {} : { instructions }),
  };
}
