import { splitUriTemplate } from "./split-uri-template.js";
import { type MatchProgram, MatchProgramBuilder, runMatchProgram } from "./uri-template-matcher.js";

/** Most `{expressions}` a URI template may have (a `TypeError` names the limit past it). */
export const MAX_URI_TEMPLATE_EXPRESSIONS = 32;

/** Most variables a URI template may name, over all its expressions. */
export const MAX_URI_TEMPLATE_VARIABLES = 64;

/** Longest URI template accepted, in characters. */
export const MAX_URI_TEMPLATE_LENGTH = 4096;

/**
 * Longest URI that `match` looks at, in characters; a longer one matches no template. Matching is
 * linear, but a client's megabyte-long URI times a template's many expressions would still cost
 * seconds of CPU.
 */
export const MAX_URI_MATCH_LENGTH = 8192;

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
  #program: MatchProgram | undefined;

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
   * URI does not fit (or is longer than {@link MAX_URI_MATCH_LENGTH}). Variables absent from the URI
   * are absent from the result. Takes time proportional to template size × URI length at most: no
   * backtracking, whatever the template.
   */
  match(uri: string): Record<string, string> | undefined {
    if (uri.length > MAX_URI_MATCH_LENGTH) return undefined;
    this.#program ??= buildProgram(this.#parts);
    const found = runMatchProgram(this.#program, uri);
    if (found === undefined) return undefined;
    const variables: Record<string, string> = {};
    let group = 0;
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
  if (template.length > MAX_URI_TEMPLATE_LENGTH) {
    throw new TypeError(
      `URI template is ${template.length} characters long; at most ${MAX_URI_TEMPLATE_LENGTH} are supported`,
    );
  }
  const { literals, expressions: bodies } = splitUriTemplate(template);
  const parts: Part[] = [];
  for (const [position, literal] of literals.entries()) {
    if (literal !== "") parts.push(literal);
    const body = bodies[position];
    if (body !== undefined) parts.push(parseExpression(template, body));
  }
  // Only the last literal can hold a `{`: one that no `}` closes.
  if (literals.at(-1)?.includes("{")) {
    throw new TypeError(`URI template "${template}" has an unclosed "{"`);
  }
  if (parts.some((part) => typeof part === "string" && part.includes("}"))) {
    throw new TypeError(`URI template "${template}" has an unmatched "}"`);
  }
  const expressions = parts.filter((part) => typeof part !== "string");
  const variables = expressions.reduce((total, part) => total + part.names.length, 0);
  if (expressions.length > MAX_URI_TEMPLATE_EXPRESSIONS || variables > MAX_URI_TEMPLATE_VARIABLES) {
    throw new TypeError(
      `URI template "${template.slice(0, 80)}" has ${expressions.length} expressions and ${variables} variables; at most ${MAX_URI_TEMPLATE_EXPRESSIONS} and ${MAX_URI_TEMPLATE_VARIABLES} are supported`,
    );
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

// What a value may contain, by operator: `+` and `#` take anything but `,` (lazily, as little as
// possible); the others stop at the delimiters of their URI part.
function excludedOf(operator: Operator, operatorChar: string): string {
  if (operator.allowReserved) return ",";
  if (operatorChar === ".") return "/?#.,";
  if (operatorChar === "/") return "/?#,";
  return "/?#,&;";
}

/** The match program of a template (for tests; not part of the package's exports). */
export function compileUriTemplateProgram(template: string): MatchProgram {
  return buildProgram(parseTemplate(template));
}

function buildProgram(parts: readonly Part[]): MatchProgram {
  const builder = new MatchProgramBuilder();
  for (const part of parts) {
    if (typeof part === "string") {
      builder.literal(encodeLiteral(part));
      continue;
    }
    const { operator, operatorChar } = part;
    if (operator.named) {
      // Named pairs are parsed after matching, so their order and optionality do not matter.
      const excluded = operatorChar === ";" ? "/?#" : "#";
      builder.optional(() => {
        builder.literal(operator.first);
        builder.capture(excluded, false);
      });
      continue;
    }
    const excluded = excludedOf(operator, operatorChar);
    const lazy = operator.allowReserved;
    const body = () => {
      builder.capture(excluded, lazy);
      for (let index = 1; index < part.names.length; index += 1) {
        builder.optional(() => {
          builder.literal(operator.separator);
          builder.capture(excluded, lazy);
        });
      }
    };
    if (operator.first === "") body();
    else
      builder.optional(() => {
        builder.literal(operator.first);
        body();
      });
  }
  return builder.build();
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
