/** Which names to keep: a name is kept when it matches some `allow` glob (or `allow` is absent or
 * empty) and matches no `deny` glob. Globs use `*` (any run of characters) and `?` (one character). */
export interface NameFilterOptions {
  readonly allow?: readonly string[] | undefined;
  readonly deny?: readonly string[] | undefined;
}

/** Decides whether a name passes a filter. */
export type NameFilter = (name: string) => boolean;

/** Compiles a glob (`*`, `?`, everything else literal) to an anchored regular expression. */
export function compileGlob(glob: string): RegExp {
  let source = "";
  for (const character of glob) {
    if (character === "*") source += ".*";
    else if (character === "?") source += ".";
    else source += character.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s");
}

/** Creates a filter from allow and deny globs; deny wins over allow. */
export function createNameFilter(options: NameFilterOptions = {}): NameFilter {
  const allow = (options.allow ?? []).map(compileGlob);
  const deny = (options.deny ?? []).map(compileGlob);
  return (name) =>
    (allow.length === 0 || allow.some((pattern) => pattern.test(name))) &&
    !deny.some((pattern) => pattern.test(name));
}
