import {
  ANY_RUN,
  createWildcardPattern,
  type WildcardPattern,
  type WildcardToken,
} from "./wildcard-pattern.js";

/** Most `{expressions}` a backend's resource template may have; past it, it routes nothing. */
export const MAX_TEMPLATE_EXPRESSIONS = 32;

/** Longest resource template accepted, in characters. */
export const MAX_TEMPLATE_LENGTH = 4096;

/**
 * A matcher for the URIs an RFC 6570 URI template can expand to. Expressions (`{name}`, `{+path}`,
 * `{?query}`...) match any run of characters; everything else is literal. Permissive on purpose: it
 * only decides which backend a `resources/read` goes to. Matching takes time proportional to
 * template length × URI length at most (no regular expression, so no backtracking).
 * Throws a `RangeError` for a template longer than {@link MAX_TEMPLATE_LENGTH} characters or with
 * more than {@link MAX_TEMPLATE_EXPRESSIONS} expressions.
 */
export function compileResourceTemplate(uriTemplate: string): WildcardPattern {
  if (uriTemplate.length > MAX_TEMPLATE_LENGTH) {
    throw new RangeError(
      `resource template is ${uriTemplate.length} characters long; at most ${MAX_TEMPLATE_LENGTH} are supported`,
    );
  }
  const tokens: WildcardToken[] = [];
  let expressions = 0;
  let index = 0;
  while (index < uriTemplate.length) {
    const open = uriTemplate.indexOf("{", index);
    const close = open < 0 ? -1 : uriTemplate.indexOf("}", open);
    if (open < 0 || close < 0) {
      tokens.push(...Array.from(uriTemplate.slice(index)));
      break;
    }
    tokens.push(...Array.from(uriTemplate.slice(index, open)), ANY_RUN);
    expressions += 1;
    index = close + 1;
  }
  if (expressions > MAX_TEMPLATE_EXPRESSIONS) {
    throw new RangeError(
      `resource template "${uriTemplate.slice(0, 80)}" has ${expressions} expressions; at most ${MAX_TEMPLATE_EXPRESSIONS} are supported`,
    );
  }
  return createWildcardPattern(tokens);
}
