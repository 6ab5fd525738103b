import type { v2025_11_25 } from "@patchbay/mcp-types";
import type { ClientHandlers } from "./client-handlers.js";

/** The capabilities a client declares: exactly those it has handlers for, plus `extra`. */
export function deriveClientCapabilities(
  handlers: ClientHandlers,
  extra: v2025_11_25.ClientCapabilities = {},
): v2025_11_25.ClientCapabilities {
  const capabilities: v2025_11_25.ClientCapabilities = { ...extra };
  if (handlers.sampling !== undefined) {
    capabilities.sampling = handlers.samplingTools === true ? { tools: {} } : {};
  }
  if (handlers.elicitation !== undefined) {
    const modes = handlers.elicitationModes ?? ["form"];
    // 2025-11-25: an empty object means form only; older servers read any object as "supported".
    capabilities.elicitation =
      modes.length === 1 && modes[0] === "form"
        ? {}
        : Object.fromEntries(modes.map((mode) => [mode, {}]));
  }
  if (handlers.roots !== undefined) capabilities.roots = { listChanged: true };
  return capabilities;
}
