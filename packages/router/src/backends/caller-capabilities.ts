import { getModernRequestMeta } from "@patchbay/mcp-types";

/** The client capabilities whose requests the gateway passes on to its callers. */
const RELAYED_CAPABILITIES = ["sampling", "elicitation", "roots"] as const;

/** Client capabilities, by name. */
type Capabilities = Readonly<Record<string, unknown>>;

/**
 * The relayed capabilities (sampling, elicitation, roots) a modern client declared in this
 * request's `_meta` (2026-07-28 carries them per request), or undefined when the params carry no
 * modern `_meta`.
 */
export function callerCapabilities(
  params: Readonly<Record<string, unknown>>,
): Capabilities | undefined {
  const declared = getModernRequestMeta(params)?.clientCapabilities;
  if (declared === undefined) return undefined;
  const picked: Record<string, unknown> = {};
  for (const name of RELAYED_CAPABILITIES) {
    if (declared[name] !== undefined) picked[name] = declared[name];
  }
  return picked;
}

/**
 * What a request to a modern backend declares for a caller: the gateway's own capabilities toward
 * that backend, with the relayed ones replaced by the caller's, so the backend asks that caller
 * only what it can answer.
 */
export function capabilitiesForCaller(own: Capabilities, caller: Capabilities): Capabilities {
  const merged: Record<string, unknown> = { ...own };
  for (const name of RELAYED_CAPABILITIES) delete merged[name];
  return { ...merged, ...caller };
}
