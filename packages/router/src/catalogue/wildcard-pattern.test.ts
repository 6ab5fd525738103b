import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob } from "./name-filter.js";
import { compileResourceTemplate, MAX_TEMPLATE_EXPRESSIONS } from "./resource-template-pattern.js";
import { ANY_ONE, ANY_RUN, matchWildcard, type WildcardToken } from "./wildcard-pattern.js";

function tokensOfGlob(glob: string): WildcardToken[] {
  return Array.from(glob, (character) =>
    character === "*" ? ANY_RUN : character === "?" ? ANY_ONE : character,
  );
}

function countSteps(
  tokens: readonly WildcardToken[],
  text: string,
): { matched: boolean; steps: number } {
  let steps = 0;
  const matched = matchWildcard(tokens, text, () => {
    steps += 1;
  });
  return { matched, steps };
}

// The regular expression the matchers replace: correct, but it backtracks exponentially.
function referenceGlob(glob: string): RegExp {
  let source = "";
  for (const character of glob) {
    if (character === "*") source += ".*";
    else if (character === "?") source += ".";
    else source += character.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "su");
}

describe("matchWildcard", () => {
  it("rejects the glob attack (6 stars against a 128-character name) within glob × name steps", () => {
    const glob = "*a*a*a*a*a*a!";
    const name = "a".repeat(128);
    const { matched, steps } = countSteps(tokensOfGlob(glob), name);
    expect(matched).toBe(false);
    expect(steps).toBeLessThanOrEqual((glob.length + 1) * (name.length + 1));
  });

  it("rejects the template attack (10 expressions, 40-character URI) and accepts its match", () => {
    const template = compileResourceTemplate("x://{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}!");
    expect(template.test(`x://${"a".repeat(40)}`)).toBe(false);
    expect(template.test(`x://${"a".repeat(40)}!`)).toBe(true);
    // A long literal against a long URI: found by indexOf, not retried at every position.
    const long = compileResourceTemplate(`x://{a}${"b".repeat(4000)}c{d}`);
    expect(long.test(`x://${"b".repeat(1_000_000)}`)).toBe(false);
    expect(long.test(`x://${"b".repeat(4000)}c`)).toBe(true);
  });

  it("stays within (tokens + 1) × (characters + 1) steps for any glob and text (property)", () => {
    const alphabet = fc.constantFrom("a", "b", "*", "?");
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 12 }).map((parts) => parts.join("")),
        fc.array(fc.constantFrom("a", "b"), { maxLength: 40 }).map((parts) => parts.join("")),
        (glob, text) => {
          const tokens = tokensOfGlob(glob);
          expect(countSteps(tokens, text).steps).toBeLessThanOrEqual(
            (tokens.length + 1) * (text.length + 1),
          );
        },
      ),
    );
  });

  it("agrees with the regular expression it replaces on small globs and names (property)", () => {
    const character = fc.constantFrom("a", "b", ".", "*", "?", "é", "😀");
    fc.assert(
      fc.property(
        fc.array(character, { maxLength: 8 }).map((parts) => parts.join("")),
        fc
          .array(fc.constantFrom("a", "b", ".", "é", "😀", "*"), { maxLength: 10 })
          .map((parts) => parts.join("")),
        (glob, name) => {
          expect(compileGlob(glob).test(name)).toBe(referenceGlob(glob).test(name));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("agrees with the template regular expression it replaces (property)", () => {
    const piece = fc.constantFrom("a", "/", "{x}", "{+p}", "{?q}", ".", "b");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 6 }).map((parts) => parts.join("")),
        fc
          .array(fc.constantFrom("a", "/", "b", ".", "?", "{x}"), { maxLength: 10 })
          .map((parts) => parts.join("")),
        (template, uri) => {
          const reference = new RegExp(
            `^${template
              .split(/\{[^}]*\}/)
              .map((literal) => literal.replace(/[\\^$.|*+?()[\]{}]/g, "\\$&"))
              .join(".*")}$`,
            "su",
          );
          expect(compileResourceTemplate(template).test(uri)).toBe(reference.test(uri));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("compileResourceTemplate limits", () => {
  it("refuses a template with too many expressions, naming the limit", () => {
    const template = `x://${"{a}".repeat(MAX_TEMPLATE_EXPRESSIONS + 1)}`;
    expect(() => compileResourceTemplate(template)).toThrow(
      `has ${MAX_TEMPLATE_EXPRESSIONS + 1} expressions; at most ${MAX_TEMPLATE_EXPRESSIONS} are supported`,
    );
    expect(() =>
      compileResourceTemplate(`x://${"{a}".repeat(MAX_TEMPLATE_EXPRESSIONS)}`),
    ).not.toThrow();
  });

  it("refuses a template longer than the limit", () => {
    expect(() => compileResourceTemplate(`x://${"a".repeat(5000)}`)).toThrow(RangeError);
  });
});
