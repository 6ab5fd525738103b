/** Values a template expands: a missing or `undefined` variable is left out (RFC 6570 section 3.2.1). */
export type UriTemplateVariables = Readonly<Record<string, string | number | boolean | undefined>>;

interface Operator {
  readonly first: string;
  readonly separator: string;
  /** Path-style and form-style operators name each variable (`;x=1`, `?x=1`). */
  readonly named: boolean;
  /** What a named variable with an empty value looks like: `;x` versus `?x=`. */
  readonly emptyValue: string;
  /** `+` and `#` let reserved characters through unencoded. */
  readonly allowReserved: boolean;
}

// RFC 6570 appendix A, levels 1 to 3 (no prefix or explode modifiers: those are level 4).
const OPERATORS: Readonly<Record<string, Operator>> = {
  "": { first: "", separator: ",", named: false, emptyValue: "", allowReserved: false },
  "+": { first: "", separator: ",", named: false, emptyValue: "", allowReserved: true },
  "#": { first: "#", separator: ",", named: false, emptyValue: "", allowReserved: true },
  ".": { first: ".", separator: ".", named: false, emptyValue: "", allowReserved: false },
  "/": { first: "/", separator: "/", named: false, emptyValue: "", allowReserved: false },
  ";": { first: ";", separator: ";", named: true, emptyValue: "", allowReserved: false },
  "?": { first: "?", separator: "&", named: true, emptyValue: "=", allowReserved: false },
  "&": { first: "&", separator: "&", named: true, emptyValue: "=", allowReserved: false },
};

interface Expression {
  readonly operator: Operator;
  readonly operatorChar: string;
  readonly names: readonly string[];
}

type Part = string | Expression;

const VARIABLE_NAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/**
 * An RFC 6570 URI template (levels 1 to 3): expands variables into a URI and matches a URI back to
 * its variables. Resource templates (`resources/templates/list`) use it.
 */
export class UriTemplate {
  /** The template text as given. */
  readonly template: string;
  /** Names of the template's variables, in order of appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly Part[];
  #pattern: RegExp | undefined;

  /** Parses a template; throws a `TypeError` naming the problem when it is malformed. */
  constructor(template: string) {
    this.template = template;
    this.#parts = parseTemplate(template);
    this.variableNames = this.#parts.flatMap((part) =>
      typeof part === "string" ? [] : part.names,
    );
  }

  /** True when the text contains at least one `{expression}`. */
  static isTemplate(text: string): boolean {
    return /\{[^}]+\}/.test(text);
  }

  /** Expands the template with the given variables. */
  expand(variables: UriTemplateVariables): string {
    return this.#parts
      .map((part) =>
        typeof part === "string" ? encodeLiteral(part) : expandExpression(part, variables),
      )
      .join("");
  }

  /**
   * Matches a URI against the template and returns the decoded variables, or `undefined` when the
   * URI does not fit. Variables absent from the URI are absent from the result.
   */
  match(uri: string): Record<string, string> | undefined {
    this.#pattern ??= buildPattern(this.#parts);
    const found = this.#pattern.exec(uri);
    if (found === null) return undefined;
    const variables: Record<string, string> = {};
    let group = 1;
    // `{?x}{&y}`: the query group captures the whole query, so later `&` expressions read it too.
    let query: string | undefined;
    for (const part of this.#parts) {
      if (typeof part === "string") continue;
      if (part.operator.named) {
        let text = found[group++];
        if (part.operatorChar === "?") query = text;
        if (text === undefined && part.operatorChar === "&") text = query;
        if (text !== undefined) readNamedPairs(part, text, variables);
        continue;
      }
      for (const name of part.names) {
        const text = found[group++];
        if (text !== undefined) variables[name] = safeDecode(text);
      }
    }
    return variables;
  }

  /** The template text. */
  toString(): string {
    return this.template;
  }
}

function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf("{", index);
    if (open === -1) {
      parts.push(template.slice(index));
      break;
    }
    if (open > index) parts.push(template.slice(index, open));
    const close = template.indexOf("}", open);
    if (close === -1) throw new TypeError(`URI template "${template}" has an unclosed "{"`);
    parts.push(parseExpression(template, template.slice(open + 1, close)));
    index = close + 1;
  }
  if (parts.some((part) => typeof part === "string" && part.includes("}"))) {
    throw new TypeError(`URI template "${template}" has an unmatched "}"`);
  }
  return parts;
}

function parseExpression(template: string, body: string): Expression {
  const first = body.charAt(0);
  const operatorChar = first in OPERATORS && first !== "" ? first : "";
  if ("=,!@|".includes(first) && first !== "") {
    throw new TypeError(`URI template "${template}" uses reserved operator "${first}"`);
  }
  const operator = OPERATORS[operatorChar] as Operator;
  const names = body.slice(operatorChar.length).split(",");
  for (const name of names) {
    if (!VARIABLE_NAME.test(name)) {
      throw new TypeError(
        `URI template "${template}" has an invalid variable "${name}" (levels 1-3: no modifiers)`,
      );
    }
  }
  return { operator, operatorChar, names };
}

function encodeLiteral(text: string): string {
  return encodeValue(text, true);
}

function encodeValue(value: string, allowReserved: boolean): string {
  if (!allowReserved) {
    return encodeURIComponent(value).replace(
      /[!'()*]/g,
      (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  }
  // Reserved characters and existing percent-encoded triplets pass through (RFC 6570 section 3.2.3).
  return value
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((piece, position) => (position % 2 === 1 ? piece : encodeURI(piece).replace(/%25/g, "%")))
    .join("")
    .replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
}

function expandExpression(expression: Expression, variables: UriTemplateVariables): string {
  const { operator } = expression;
  const pieces: string[] = [];
  for (const name of expression.names) {
    const raw = variables[name];
    if (raw === undefined) continue;
    const value = encodeValue(String(raw), operator.allowReserved);
    if (!operator.named) pieces.push(value);
    else pieces.push(value === "" ? `${name}${operator.emptyValue}` : `${name}=${value}`);
  }
  return pieces.length === 0 ? "" : operator.first + pieces.join(operator.separator);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function valuePattern(operator: Operator, operatorChar: string): string {
  if (operator.allowReserved) return "[^,]*?";
  if (operatorChar === ".") return "[^/?#.,]*";
  if (operatorChar === "/") return "[^/?#,]*";
  return "[^/?#,&;]*";
}

function buildPattern(parts: readonly Part[]): RegExp {
  let source = "^";
  for (const part of parts) {
    if (typeof part === "string") {
      source += escapeRegExp(encodeLiteral(part));
      continue;
    }
    const { operator, operatorChar } = part;
    if (operator.named) {
      // Named pairs are parsed after matching, so their order and optionality do not matter.
      const stop = operatorChar === ";" ? "[^/?#]*" : "[^#]*";
      source += `(?:${escapeRegExp(operator.first)}(${stop}))?`;
      continue;
    }
    const value = valuePattern(operator, operatorChar);
    const separator = escapeRegExp(operator.separator);
    const [head, ...rest] = part.names.map(() => `(${value})`);
    const tail = rest.map((group) => `(?:${separator}${group})?`).join("");
    const body = `${head}${tail}`;
    source += operator.first === "" ? body : `(?:${escapeRegExp(operator.first)}${body})?`;
  }
  return new RegExp(`${source}$`);
}

function readNamedPairs(expression: Expression, text: string, into: Record<string, string>): void {
  for (const pair of text.split(expression.operator.separator)) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (!expression.names.includes(name)) continue;
    into[name] = equals === -1 ? "" : safeDecode(pair.slice(equals + 1));
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
