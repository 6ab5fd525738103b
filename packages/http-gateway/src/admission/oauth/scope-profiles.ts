/** The profiles a set of scopes grants: `"*"` (every one) or the names (`""`: the default endpoint). */
export type GrantedProfiles = "*" | ReadonlySet<string>;

/** The profiles that the granted `scopes` open, by the configured scope -> profiles map. */
export function profilesForScopes(
  map: ReadonlyMap<string, readonly string[]>,
  scopes: readonly string[],
): GrantedProfiles {
  const profiles = new Set<string>();
  for (const scope of scopes) {
    for (const profile of map.get(scope) ?? []) {
      if (profile === "*") return "*";
      profiles.add(profile);
    }
  }
  return profiles;
}

/** True when `granted` opens `profile` (`undefined`: the default endpoint). */
export function grantsProfile(granted: GrantedProfiles, profile: string | undefined): boolean {
  return granted === "*" || granted.has(profile ?? "");
}

/** Every configured scope that opens `profile`, those naming it before those granting `"*"`. */
export function scopesForProfile(
  map: ReadonlyMap<string, readonly string[]>,
  profile: string | undefined,
): string[] {
  const named: string[] = [];
  const wildcard: string[] = [];
  for (const [scope, profiles] of map) {
    if (profiles.includes(profile ?? "")) named.push(scope);
    else if (profiles.includes("*")) wildcard.push(scope);
  }
  return [...named, ...wildcard];
}

/**
 * The one scope to ask for to open `profile` (the `scope` of a step-up challenge): the first
 * configured scope naming it, else the first granting every profile; `undefined` when none does.
 */
export function stepUpScope(
  map: ReadonlyMap<string, readonly string[]>,
  profile: string | undefined,
): string | undefined {
  return scopesForProfile(map, profile)[0];
}

/**
 * The scopes an access token grants: RFC 9068's space-separated `scope`, or the `scp` claim that
 * some authorization servers use instead (a string or an array of strings).
 */
export function grantedScopes(claims: Readonly<Record<string, unknown>>): string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === "string") return value.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(value))
    return value.filter((scope): scope is string => typeof scope === "string");
  return [];
}
