import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compileUriTemplateProgram,
  MAX_URI_MATCH_LENGTH,
  MAX_URI_TEMPLATE_EXPRESSIONS,
  MAX_URI_TEMPLATE_VARIABLES,
  UriTemplate,
} from "./uri-template.js";
import { MatchProgramBuilder, runMatchProgram } from "./uri-template-matcher.js";

// The regular expression the matcher replaced, as it was built: the reference for its captures.
// (It backtracks: `{a}{b}...{j}!` against 40 unmatched characters took 21 s.)
const OPERATORS: Record<
  string,
  { first: string; separator: string; named: boolean; reserved: boolean }
> = {
  "": { first: "", separator: ",", named: false, reserved: false },
  "+": { first: "", separator: ",", named: false, reserved: true },
  "#": { first: "#", separator: ",", named: false, reserved: true },
  ".": { first: ".", separator: ".", named: false, reserved: false },
  "/": { first: "/", separator: "/", named: false, reserved: false },
  ";": { first: ";", separator: ";", named: true, reserved: false },
  "?": { first: "?", separator: "&", named: true, reserved: false },
  "&": { first: "&", separator: "&", named: true, reserved: false },
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function referencePattern(template: string): RegExp {
  let source = "^";
  for (const piece of template.split(/(\{[^}]*\})/)) {
    if (!piece.startsWith("{")) {
      source += escapeRegExp(encodeURI(piece));
      continue;
    }
    const body = piece.slice(1, -1);
    const operatorChar = body.charAt(0) in OPERATORS && body.charAt(0) !== "" ? body.charAt(0) : "";
    const operator = OPERATORS[operatorChar]!;
    const names = body.slice(operatorChar.length).split(",");
    if (operator.named) {
      source += `(?:${escapeRegExp(operator.first)}(${operatorChar === ";" ? "[^/?#]*" : "[^#]*"}))?`;
      continue;
    }
    const value = operator.reserved
      ? "[^,]*?"
      : operatorChar === "."
        ? "[^/?#.,]*"
        : operatorChar === "/"
          ? "[^/?#,]*"
          : "[^/?#,&;]*";
    const [head, ...rest] = names.map(() => `(${value})`);
    const groups = `${head}${rest.map((group) => `(?:${escapeRegExp(operator.separator)}${group})?`).join("")}`;
    source += operator.first === "" ? groups : `(?:${escapeRegExp(operator.first)}${groups})?`;
  }
  return new RegExp(`${source}$`);
}

function stepsOf(build: (builder: MatchProgramBuilder) => void, input: string) {
  const builder = new MatchProgramBuilder();
  build(builder);
  const program = builder.build();
  let steps = 0;
  const found = runMatchProgram(program, input, () => {
    steps += 1;
  });
  return { found, steps, size: program.instructions.length };
}

describe("URI template matching without backtracking", () => {
  it("rejects the ReDoS template against a 40-character unmatched URI", () => {
    const template = new UriTemplate("x://{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}!");
    expect(template.match(`x://${"a".repeat(40)}`)).toBeUndefined();
    expect(template.match(`x://${"a".repeat(40)}!`)).toMatchObject({ a: "a".repeat(40), b: "" });
  });

  it("does at most program size × (URI length + 1) steps on the attack input", () => {
    const uri = `x://${"a".repeat(2000)}`;
    const { found, steps, size } = stepsOf((builder) => {
      builder.literal("x://");
      for (let index = 0; index < 10; index += 1) builder.capture("/?#,&;", false);
      builder.literal("!");
    }, uri);
    expect(found).toBeUndefined();
    expect(steps).toBeLessThanOrEqual(size * (uri.length + 1));
  });

  it("captures what the regular expression it replaces captured (property)", () => {
    const piece = fc.constantFrom(
      "a",
      "/",
      ",",
      "{x}",
      "{x,y}",
      "{+p}",
      "{#f,g}",
      "{.d}",
      "{/s,t}",
      "{;m}",
      "{?q,r}",
      "{&z}",
    );
    const character = fc.constantFrom("a", "b", "/", "?", "#", ",", ".", ";", "&", "=", "%41", "q");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 5 }).map((parts) => parts.join("")),
        fc.array(character, { maxLength: 12 }).map((parts) => parts.join("")),
        (text, uri) => {
          const expected = referencePattern(text).exec(uri);
          const found = runMatchProgram(compileUriTemplateProgram(text), uri);
          expect(found).toEqual(expected === null ? undefined : expected.slice(1));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("matches no URI longer than the limit", () => {
    const template = new UriTemplate("x://{+rest}");
    expect(template.match(`x://${"a".repeat(MAX_URI_MATCH_LENGTH - 4)}`)).toBeDefined();
    expect(template.match(`x://${"a".repeat(MAX_URI_MATCH_LENGTH)}`)).toBeUndefined();
  });

  it("refuses templates past the expression and variable limits, naming them", () => {
    expect(() => new UriTemplate(`x://${"{a}".repeat(MAX_URI_TEMPLATE_EXPRESSIONS + 1)}`)).toThrow(
      `at most ${MAX_URI_TEMPLATE_EXPRESSIONS} and ${MAX_URI_TEMPLATE_VARIABLES} are supported`,
    );
    const names = Array.from({ length: MAX_URI_TEMPLATE_VARIABLES + 1 }, (_, index) => `v${index}`);
    expect(() => new UriTemplate(`x://{${names.join(",")}}`)).toThrow(TypeError);
    expect(() => new UriTemplate(`x://${"a".repeat(5000)}`)).toThrow(TypeError);
    expect(
      () => new UriTemplate(`x://${"{a}".repeat(MAX_URI_TEMPLATE_EXPRESSIONS)}`),
    ).not.toThrow();
  });
});
