import { describe, expect, it } from "vitest";
import { UriTemplate } from "./uri-template.js";

// RFC 6570 section 3.2 examples, levels 1 to 3.
const variables = {
  var: "value",
  hello: "Hello World!",
  path: "/foo/bar",
  empty: "",
  x: "1024",
  y: "768",
};

const expansions: [string, string][] = [
  ["{var}", "value"],
  ["{hello}", "Hello%20World%21"],
  ["{+var}", "value"],
  ["{+hello}", "Hello%20World!"],
  ["{+path}/here", "/foo/bar/here"],
  ["here?ref={+path}", "here?ref=/foo/bar"],
  ["X{#var}", "X#value"],
  ["X{#hello}", "X#Hello%20World!"],
  ["map?{x,y}", "map?1024,768"],
  ["{x,hello,y}", "1024,Hello%20World%21,768"],
  ["{+x,hello,y}", "1024,Hello%20World!,768"],
  ["{+path,x}/here", "/foo/bar,1024/here"],
  ["{#x,hello,y}", "#1024,Hello%20World!,768"],
  ["{#path,x}/here", "#/foo/bar,1024/here"],
  ["X{.var}", "X.value"],
  ["X{.x,y}", "X.1024.768"],
  ["{/var}", "/value"],
  ["{/var,x}/here", "/value/1024/here"],
  ["{;x,y}", ";x=1024;y=768"],
  ["{;x,y,empty}", ";x=1024;y=768;empty"],
  ["{?x,y}", "?x=1024&y=768"],
  ["{?x,y,empty}", "?x=1024&y=768&empty="],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
  ["{&x,y,empty}", "&x=1024&y=768&empty="],
  ["{?x,undef}", "?x=1024"],
];

describe("UriTemplate", () => {
  it.each(expansions)("expands %s to %s", (template, expected) => {
    expect(new UriTemplate(template).expand(variables)).toBe(expected);
  });

  it.each(expansions)("matches the expansion of %s back to its variables", (template, uri) => {
    const template_ = new UriTemplate(template);
    const matched = template_.match(uri);
    expect(matched).toBeDefined();
    for (const name of template_.variableNames) {
      if (name === "undef") continue;
      expect(matched?.[name]).toBe(variables[name as keyof typeof variables]);
    }
  });

  it("matches a resource template URI and decodes its variables", () => {
    const template = new UriTemplate("test://template/{id}/data");
    expect(template.match("test://template/42/data")).toEqual({ id: "42" });
    expect(template.match("test://template/a%20b/data")).toEqual({ id: "a b" });
  });

  it("refuses URIs that do not fit the template", () => {
    const template = new UriTemplate("test://template/{id}/data");
    expect(template.match("test://template/42/other")).toBeUndefined();
    expect(template.match("test://template/4/2/data")).toBeUndefined();
    expect(template.match("other://template/42/data")).toBeUndefined();
  });

  it("matches query variables in any order and leaves absent ones out", () => {
    const template = new UriTemplate("search://items{?q,limit}");
    expect(template.match("search://items?limit=5&q=cats")).toEqual({ q: "cats", limit: "5" });
    expect(template.match("search://items")).toEqual({});
  });

  it("matches reserved expansion across slashes", () => {
    const template = new UriTemplate("file:///{+path}");
    expect(template.match("file:///home/user/notes.txt")).toEqual({ path: "home/user/notes.txt" });
  });

  it("lists variable names in order", () => {
    expect(new UriTemplate("a{/b,c}{?d}").variableNames).toEqual(["b", "c", "d"]);
  });

  it("rejects malformed templates with a TypeError", () => {
    expect(() => new UriTemplate("a{b")).toThrow(TypeError);
    expect(() => new UriTemplate("a}b")).toThrow(TypeError);
    expect(() => new UriTemplate("{var*}")).toThrow(/invalid variable/);
    expect(() => new UriTemplate("{=var}")).toThrow(/reserved operator/);
  });

  it("tells templates from plain URIs", () => {
    expect(UriTemplate.isTemplate("test://{id}")).toBe(true);
    expect(UriTemplate.isTemplate("test://static")).toBe(false);
  });
});
