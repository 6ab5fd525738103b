import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UriTemplate } from "./uri-template.js";

// Any string, including reserved characters, percent signs and non-ASCII text.
const value = fc.string({ unit: "grapheme", maxLength: 20 });

describe("UriTemplate properties", () => {
  it.each([
    "items/{x}/detail",
    "{x,y}",
    "base{/x,y}",
    "search{?x,y}",
    "?fixed=1{&x,y}",
    "matrix{;x,y}",
  ])("matches every expansion of %s back to the values it was given", (text) => {
    const template = new UriTemplate(text);
    fc.assert(
      fc.property(value, value, (x, y) => {
        const variables = template.variableNames.includes("y") ? { x, y } : { x };
        expect(template.match(template.expand(variables))).toEqual(variables);
      }),
    );
  });

  it("matches label expansions back when the values hold no dot (dots are unreserved there)", () => {
    const template = new UriTemplate("file{.x,y}");
    const dotless = value.filter((text) => !text.includes("."));
    fc.assert(
      fc.property(dotless, dotless, (x, y) => {
        expect(template.match(template.expand({ x, y }))).toEqual({ x, y });
      }),
    );
  });

  it("never throws while matching arbitrary text", () => {
    const templates = ["test://template/{id}/data", "{+path}", "a{?q,limit}", "{#frag}"].map(
      (text) => new UriTemplate(text),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (uri) => {
        for (const template of templates) template.match(uri);
      }),
    );
  });
});
