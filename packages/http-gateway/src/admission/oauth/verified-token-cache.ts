import type { OAuthPrincipal } from "./oauth-principal.js";

/** Principals of tokens verified recently, so a client's next request skips the signature check. */
export interface VerifiedTokenCache {
  /** The principal of `token` at `endpointPath`, while its entry is younger than its deadline. */
  get(endpointPath: string, token: string, now: number): OAuthPrincipal | undefined;
  /** Keeps `principal` until `until` (milliseconds since the epoch). */
  set(endpointPath: string, token: string, principal: OAuthPrincipal, until: number): void;
}

/** The most tokens remembered; past it the oldest entry goes. */
export const MAX_CACHED_TOKENS = 1000;

/**
 * A bounded cache of verified tokens, keyed by endpoint and token (a token good at one endpoint says
 * nothing about another's audience). An entry never outlives the deadline it was given, which is
 * at most the token's own expiry; nothing that failed is kept, so a refusal is always re-checked.
 */
export function createVerifiedTokenCache(maxEntries = MAX_CACHED_TOKENS): VerifiedTokenCache {
  const entries = new Map<string, { readonly principal: OAuthPrincipal; readonly until: number }>();
  return {
    get(endpointPath, token, now) {
      const key = `${endpointPath} ${token}`;
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (now < entry.until) return entry.principal;
      entries.delete(key);
      return undefined;
    },
    set(endpointPath, token, principal, until) {
      const key = `${endpointPath} ${token}`;
      entries.delete(key);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      entries.set(key, { principal, until });
    },
  };
}
