import type { Capability, Directional, TransportDirection } from "./transport-contract-options.js";

/** Whether a case applies, and the reason shown when it does not. */
export interface Applicability {
  readonly applies: boolean;
  readonly reason: string;
}

/** Reads a capability that defaults to supported; `key` names it in the fallback reason. */
export function resolveCapability(capability: Capability | undefined, key: string): Applicability {
  if (capability === undefined || capability === true) return { applies: true, reason: "" };
  if (capability === false) return { applies: false, reason: `capabilities.${key} is false` };
  return { applies: false, reason: capability.unsupported };
}

function isPerDirection<T>(
  value: Directional<T>,
): value is { readonly clientToServer?: T; readonly serverToClient?: T } {
  return (
    typeof value === "object" &&
    value !== null &&
    ("clientToServer" in value || "serverToClient" in value)
  );
}

/** The value of a directional setting for `direction` (the same both ways when not split). */
export function forDirection<T>(
  value: Directional<T> | undefined,
  direction: TransportDirection,
): T | undefined {
  if (value === undefined || !isPerDirection(value)) return value as T | undefined;
  return value[direction];
}

/** Reads a directional capability for one direction; the fallback reason names the key. */
export function resolveDirectional(
  capability: Directional<Capability> | undefined,
  key: string,
  direction: TransportDirection,
): Applicability {
  const label =
    capability !== undefined && isPerDirection(capability) ? `${key}.${direction}` : key;
  return resolveCapability(forDirection(capability, direction), label);
}

/** Applies when every one of `applicabilities` does; the reason is the first failing one's. */
export function allOf(...applicabilities: readonly Applicability[]): Applicability {
  return applicabilities.find((applicability) => !applicability.applies) ?? APPLIES;
}

/** A case that always applies. */
export const APPLIES: Applicability = { applies: true, reason: "" };
