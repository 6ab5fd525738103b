import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob, createNameFilter } from "./name-filter.js";

describe("compileGlob", () => {
  it("matches any run of characters with *", () => {
    expect(compileGlob("read_*").test("read_file")).toBe(true);
    expect(compileGlob("read_*").test("read_")).toBe(true);
    expect(compileGlob("read_*").test("write_file")).toBe(false);
  });

  it("matches exactly one character with ?", () => {
    expect(compileGlob("get?").test("gets")).toBe(true);
    expect(compileGlob("get?").test("get")).toBe(false);
  });

  it("treats regular expression characters literally", () => {
    expect(compileGlob("a.b").test("a.b")).toBe(true);
    expect(compileGlob("a.b").test("axb")).toBe(false);
    expect(compileGlob("(x)+").test("(x)+")).toBe(true);
  });

  it("matches every string against itself when it has no wildcard (property)", () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !/[*?]/.test(text)),
        (text) => {
          expect(compileGlob(text).test(text)).toBe(true);
        },
      ),
    );
  });
});

describe("createNameFilter", () => {
  it("keeps everything without lists", () => {
    expect(createNameFilter()("anything")).toBe(true);
  });

  it("keeps only allowed names when an allow list is given", () => {
    const filter = createNameFilter({ allow: ["read_*", "list"] });
    expect(filter("read_file")).toBe(true);
    expect(filter("list")).toBe(true);
    expect(filter("delete_file")).toBe(false);
  });

  it("drops denied names even when allowed", () => {
    const filter = createNameFilter({ allow: ["*"], deny: ["*_dangerous"] });
    expect(filter("run_dangerous")).toBe(false);
    expect(filter("run_safe")).toBe(true);
  });

  it("treats an empty allow list as allowing everything", () => {
    expect(createNameFilter({ allow: [], deny: ["x"] })("y")).toBe(true);
  });
});
