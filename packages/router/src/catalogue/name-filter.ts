import {
  ANY_ONE,
  ANY_RUN,
  createWildcardPattern,
  type WildcardPattern,
  type WildcardToken,
} from "./wildcard-pattern.js";

/** Which names to keep: a name is kept when it matches some `allow` glob (or `allow` is absent or
 * empty) and matches no `deny` glob. Globs use `*` (any run of characters) and `?` (one character). */
export interface NameFilterOptions {
  readonly allow?: readonly string[] | undefined;
  readonly deny?: readonly string[] | undefined;
}

/** Decides whether a name passes a filter. */
export type NameFilter = (name: string) => boolean;

/**
 * Compiles a glob (`*` any run of characters, `?` one character, everything else literal) to a
 * whole-name matcher that runs in time proportional to glob length × name length, never more (no
 * regular expression, so no backtracking however many `*` the glob has).
 */
export function compileGlob(glob: string): WildcardPattern {
  const tokens: WildcardToken[] = Array.from(glob, (character) =>
    character === "*" ? ANY_RUN : character === "?" ? ANY_ONE : character,
  );
  return createWildcardPattern(tokens);
}

/** Creates a filter from allow and deny globs; deny wins over allow. */
export function createNameFilter(options: NameFilterOptions = {}): NameFilter {
  const allow = (options.allow ?? []).map(compileGlob);
  const deny = (options.deny ?? []).map(compileGlob);
  return (name) =>
    (allow.length === 0 || allow.some((pattern) => pattern.test(name))) &&
    !deny.some((pattern) => pattern.test(name));
}
