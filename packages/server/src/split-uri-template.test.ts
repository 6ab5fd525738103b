import { describe, expect, it } from "vitest";
import { splitUriTemplate } from "./split-uri-template.js";

describe("splitUriTemplate", () => {
  it("cuts a template at its expressions, one more literal than expressions", () => {
    expect(splitUriTemplate("file:///{+path}{?query,page}")).toEqual({
      literals: ["file:///", "", ""],
      expressions: ["+path", "?query,page"],
    });
    expect(splitUriTemplate("memo://note")).toEqual({ literals: ["memo://note"], expressions: [] });
    expect(splitUriTemplate("")).toEqual({ literals: [""], expressions: [] });
  });

  it("takes any expression, level 4 modifiers included, without checking it", () => {
    expect(splitUriTemplate("x://{list*}/{name:3}/{}")).toEqual({
      literals: ["x://", "/", "/", ""],
      expressions: ["list*", "name:3", ""],
    });
  });

  it("keeps a `{` that no `}` closes, and a lone `}`, as literal text", () => {
    expect(splitUriTemplate("a}b{c}d{e")).toEqual({ literals: ["a}b", "d{e"], expressions: ["c"] });
  });
});
