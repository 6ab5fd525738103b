/** One token of a {@link WildcardPattern}: a literal character, `?` (any one), or `*` (any run). */
export type WildcardToken = string | typeof ANY_ONE | typeof ANY_RUN;

/** Matches exactly one character. */
export const ANY_ONE: unique symbol = Symbol("any one character");

/** Matches any run of characters, including none. */
export const ANY_RUN: unique symbol = Symbol("any run of characters");

/** A compiled pattern of literal characters and wildcards; `test` is a whole-string match. */
export interface WildcardPattern {
  /** True when all of `text` matches. */
  test(text: string): boolean;
}

/**
 * Matches `text` (as code points) against `tokens` without backtracking blow-up: on a mismatch it
 * returns only to the last `*` and lets it take one more character, so every (token, character)
 * pair is visited at most once per `*` retry and the work is at most (tokens + 1) × (characters + 1)
 * steps, whatever the input (a regular expression such as `^.*a.*a.*a$` takes exponential time on
 * some inputs). `onStep`, when given, is called once per step (tests count them).
 */
export function matchWildcard(
  tokens: readonly WildcardToken[],
  text: string,
  onStep?: () => void,
): boolean {
  const characters = Array.from(text);
  let token = 0;
  let position = 0;
  let lastStar = -1;
  let resumeAt = 0;
  while (position < characters.length) {
    onStep?.();
    const current = tokens[token];
    if (current === ANY_RUN) {
      lastStar = token;
      token += 1;
      resumeAt = position;
    } else if (current !== undefined && (current === ANY_ONE || current === characters[position])) {
      token += 1;
      position += 1;
    } else if (lastStar >= 0) {
      // Let the last `*` absorb one more character and retry what follows it.
      token = lastStar + 1;
      resumeAt += 1;
      position = resumeAt;
    } else {
      return false;
    }
  }
  while (tokens[token] === ANY_RUN) token += 1;
  return token === tokens.length;
}

/** Compiles tokens into a {@link WildcardPattern}, merging runs of `*` (they match the same). */
export function createWildcardPattern(tokens: readonly WildcardToken[]): WildcardPattern {
  const merged = tokens.filter(
    (item, index) => !(item === ANY_RUN && tokens[index - 1] === ANY_RUN),
  );
  return { test: (text) => matchWildcard(merged, text) };
}
