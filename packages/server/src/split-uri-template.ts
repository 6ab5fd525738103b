/** A URI template cut at its `{expressions}`: one more literal than there are expressions. */
export interface UriTemplatePieces {
  /** The literal text before, between and after the expressions (any may be empty). */
  readonly literals: readonly string[];
  /** The text inside each `{...}`, braces left out. */
  readonly expressions: readonly string[];
}

/**
 * Cuts a URI template at its expressions (RFC 6570 section 2.2: each runs from a `{` to the next
 * `}`), checking nothing: a `{` with no `}` after it stays literal text. `UriTemplate` validates
 * the pieces it parses; a router that only asks which backend's template a URI fits takes any
 * template a backend lists, level 4 included.
 */
export function splitUriTemplate(template: string): UriTemplatePieces {
  const literals: string[] = [];
  const expressions: string[] = [];
  let literal = "";
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf("{", index);
    const close = open < 0 ? -1 : template.indexOf("}", open);
    if (close < 0) {
      literal += template.slice(index);
      break;
    }
    literals.push(literal + template.slice(index, open));
    expressions.push(template.slice(open + 1, close));
    literal = "";
    index = close + 1;
  }
  literals.push(literal);
  return { literals, expressions };
}
