import {
  MAX_URI_TEMPLATE_EXPRESSIONS,
  MAX_URI_TEMPLATE_LENGTH,
  splitUriTemplate,
} from "@patchbay/server";
import type { WildcardPattern } from "./wildcard-pattern.js";

/** Most `{expressions}` a backend's resource template may have; past it, it routes nothing. */
export const MAX_TEMPLATE_EXPRESSIONS = MAX_URI_TEMPLATE_EXPRESSIONS;

/** Longest resource template accepted, in characters. */
export const MAX_TEMPLATE_LENGTH = MAX_URI_TEMPLATE_LENGTH;

/**
 * A matcher for the URIs an RFC 6570 URI template can expand to. Expressions (`{name}`, `{+path}`,
 * `{?query}`...) match any run of characters; everything else is literal. Permissive on purpose: it
 * only decides which backend a `resources/read` goes to, so the template is cut with
 * `@patchbay/server`'s lenient `splitUriTemplate` and any level is taken. No regular expression:
 * the literal pieces are found left to right with `indexOf`, each from where the previous one
 * ended (the leftmost choice is always right when expressions match anything), so a URI is scanned
 * about once. Throws a `RangeError` for a template longer than {@link MAX_TEMPLATE_LENGTH}
 * characters or with more than {@link MAX_TEMPLATE_EXPRESSIONS} expressions.
 */
export function compileResourceTemplate(uriTemplate: string): WildcardPattern {
  if (uriTemplate.length > MAX_TEMPLATE_LENGTH) {
    throw new RangeError(
      `resource template is ${uriTemplate.length} characters long; at most ${MAX_TEMPLATE_LENGTH} are supported`,
    );
  }
  const { literals, expressions } = splitUriTemplate(uriTemplate);
  if (expressions.length > MAX_TEMPLATE_EXPRESSIONS) {
    throw new RangeError(
      `resource template "${uriTemplate.slice(0, 80)}" has ${expressions.length} expressions; at most ${MAX_TEMPLATE_EXPRESSIONS} are supported`,
    );
  }
  return { test: (uri) => matchPieces(literals, uri) };
}

/** True when `text` is `pieces` joined by runs of any characters (anchored at both ends). */
function matchPieces(pieces: readonly string[], text: string): boolean {
  const first = pieces[0] as string;
  if (pieces.length === 1) return text === first;
  const last = pieces[pieces.length - 1] as string;
  if (!text.startsWith(first)) return false;
  const end = text.length - last.length;
  if (end < first.length || !text.endsWith(last)) return false;
  let position = first.length;
  for (let index = 1; index < pieces.length - 1; index += 1) {
    const middle = pieces[index] as string;
    if (middle === "") continue;
    const found = text.indexOf(middle, position);
    if (found < 0 || found + middle.length > end) return false;
    position = found + middle.length;
  }
  return true;
}
