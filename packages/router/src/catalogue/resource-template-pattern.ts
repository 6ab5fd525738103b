/**
 * A regular expression that matches the URIs an RFC 6570 URI template can expand to. Expressions
 * (`{name}`, `{+path}`, `{?query}`...) match any run of characters; everything else is literal.
 * Permissive on purpose: it only decides which backend a `resources/read` goes to.
 */
export function compileResourceTemplate(uriTemplate: string): RegExp {
  let source = "";
  let index = 0;
  while (index < uriTemplate.length) {
    const open = uriTemplate.indexOf("{", index);
    const close = open < 0 ? -1 : uriTemplate.indexOf("}", open);
    if (open < 0 || close < 0) {
      source += escapeLiteral(uriTemplate.slice(index));
      break;
    }
    source += `${escapeLiteral(uriTemplate.slice(index, open))}.*`;
    index = close + 1;
  }
  return new RegExp(`^${source}$`, "s");
}

function escapeLiteral(text: string): string {
  return text.replace(/[\\^$.|*+?()[\]{}]/g, "\\$&");
}
