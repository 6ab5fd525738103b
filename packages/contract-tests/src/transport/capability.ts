import type { Capability } from "./transport-contract-options.js";

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

/** Applies when every one of `applicabilities` does; the reason is the first failing one's. */
export function allOf(...applicabilities: readonly Applicability[]): Applicability {
  return applicabilities.find((applicability) => !applicability.applies) ?? APPLIES;
}

/** A case that always applies. */
export const APPLIES: Applicability = { applies: true, reason: "" };
