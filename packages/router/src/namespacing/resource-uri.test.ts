import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatResourceUri, parseResourceUri } from "./resource-uri.js";

describe("resource URI rewriting", () => {
  it("prefixes the original URI with the patchbay scheme and namespace", () => {
    expect(formatResourceUri("docs", "file:///a/b.txt")).toBe("patchbay://docs/file:///a/b.txt");
  });

  it("keeps URI templates as templates", () => {
    expect(formatResourceUri("docs", "file:///{path}")).toBe("patchbay://docs/file:///{path}");
  });

  it("parses a rewritten URI back", () => {
    expect(parseResourceUri("patchbay://docs/file:///a/b.txt")).toEqual({
      namespace: "docs",
      uri: "file:///a/b.txt",
    });
  });

  it("returns undefined for a URI that was not rewritten", () => {
    expect(parseResourceUri("file:///a")).toBeUndefined();
    expect(parseResourceUri("patchbay:///x")).toBeUndefined();
  });

  it("round-trips every namespace and URI (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."abz09_.-".split("")), minLength: 1 }),
        fc.string({ unit: "grapheme" }),
        (namespace, uri) => {
          expect(parseResourceUri(formatResourceUri(namespace, uri))).toEqual({ namespace, uri });
        },
      ),
    );
  });
});
