import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeRewrittenUri, formatResourceUri, parseResourceUri } from "./resource-uri.js";

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

  it("keeps the ui:// scheme of MCP Apps resources, the namespace in front of the authority", () => {
    expect(formatResourceUri("docs", "ui://weather/view.html")).toBe("ui://docs+weather/view.html");
    expect(formatResourceUri("docs", "ui://widget/{id}")).toBe("ui://docs+widget/{id}");
    expect(parseResourceUri("ui://docs+weather/view.html")).toEqual({
      namespace: "docs",
      uri: "ui://weather/view.html",
    });
    expect(parseResourceUri(formatResourceUri("a.b-c_1", "ui://x+y/z+w"))).toEqual({
      namespace: "a.b-c_1",
      uri: "ui://x+y/z+w",
    });
    expect(describeRewrittenUri("ui://weather/view.html")).toBe(
      "ui://<namespace>+weather/view.html",
    );
  });

  it("stays a valid URL with the ui scheme and the same path", () => {
    const rewritten = new URL(formatResourceUri("docs", "ui://weather/charts/view.html?x=1"));
    expect(rewritten.protocol).toBe("ui:");
    expect(rewritten.host).toBe("docs+weather");
    expect(rewritten.pathname).toBe("/charts/view.html");
    expect(rewritten.search).toBe("?x=1");
  });

  it("reads a ui:// URI without a namespace before its authority's end as not rewritten", () => {
    expect(parseResourceUri("ui://weather/view.html")).toBeUndefined();
    expect(parseResourceUri("ui://weather/a+b.html")).toBeUndefined();
    expect(parseResourceUri("ui://+weather/x")).toBeUndefined();
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

  it("round-trips every namespace and ui:// URI (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."abz09_.-".split("")), minLength: 1 }),
        fc.string({ unit: "grapheme" }),
        (namespace, rest) => {
          const uri = `ui://${rest}`;
          const rewritten = formatResourceUri(namespace, uri);
          expect(rewritten.startsWith("ui://")).toBe(true);
          expect(parseResourceUri(rewritten)).toEqual({ namespace, uri });
        },
      ),
    );
  });
});
