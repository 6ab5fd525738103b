import { joinPath } from "../config/expand-variables.js";
import type { BackendConfig, ProfileConfig } from "../config/gateway-config.js";
import type { ConfigIssue } from "../config/gateway-config-error.js";
import { GATEWAY_STATUS_TOOL, GET_EVENTS_TOOL } from "../sessions/gateway-tools.js";

const gatewayToolNames = new Set([GATEWAY_STATUS_TOOL, GET_EVENTS_TOOL]);

function overridesPath(entry: string): string {
  return joinPath(joinPath(entry, "overrides"), "tools");
}

/** Exposed name -> the config path that gives a tool that name. */
type Claims = Map<string, string>;

function claim(claims: Claims, name: string, path: string, issues: ConfigIssue[]): void {
  const holder = gatewayToolNames.has(name) ? "the gateway's own tool" : claims.get(name);
  if (holder === undefined) {
    claims.set(name, path);
    return;
  }
  issues.push({
    path,
    message: `the tool would be exposed as "${name}", which ${holder} already is; choose another name`,
  });
}

/** The exposed names the backends' overrides are known to give (renamed or not). */
function backendClaims(
  backends: readonly BackendConfig[],
  separator: string,
  issues: ConfigIssue[],
): Map<string, Claims> {
  const perBackend = new Map<string, Claims>();
  const all: Claims = new Map();
  for (const backend of backends) {
    const own: Claims = new Map();
    for (const [tool, override] of Object.entries(backend.overrides?.tools ?? {})) {
      const shown = override.name ?? tool;
      const exposed = backend.namespace === "" ? shown : `${backend.namespace}${separator}${shown}`;
      const path = joinPath(overridesPath(joinPath("mcpServers", backend.name)), tool);
      claim(all, exposed, override.name === undefined ? path : joinPath(path, "name"), issues);
      own.set(exposed, path);
    }
    perBackend.set(backend.name, own);
  }
  return perBackend;
}

/**
 * The renames that collide, found at load where the config alone shows them: two tools given one
 * exposed name (by backends' or a profile's overrides), or a gateway tool's name. A collision with
 * a tool the config does not mention shows when the backend lists it, and follows `conflictPolicy`.
 */
export function overrideIssues(
  backends: readonly BackendConfig[],
  profiles: Readonly<Record<string, ProfileConfig>>,
  separator: string,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const perBackend = backendClaims(backends, separator, issues);
  for (const [name, profile] of Object.entries(profiles)) {
    const tools = Object.entries(profile.overrides?.tools ?? {});
    if (tools.length === 0) continue;
    const claims: Claims = new Map();
    for (const backend of backends) {
      if (profile.backends !== undefined && !profile.backends.includes(backend.name)) continue;
      for (const [exposed, path] of perBackend.get(backend.name) ?? []) claims.set(exposed, path);
    }
    // A renamed tool leaves its name free; then each new name is claimed.
    for (const [exposed, override] of tools) {
      if (override.name !== undefined) claims.delete(exposed);
    }
    for (const [exposed, override] of tools) {
      const path = joinPath(overridesPath(joinPath("profiles", name)), exposed);
      if (override.name === undefined) {
        if (!claims.has(exposed)) claims.set(exposed, path);
        continue;
      }
      claim(claims, override.name, joinPath(path, "name"), issues);
    }
  }
  return issues;
}
