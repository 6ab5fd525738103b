import { describe, expect, it } from "vitest";
import { prepareForwardedParams, rewriteResourceUris } from "./params.js";

describe("prepareForwardedParams", () => {
  it("takes out the client's progress token and keeps other _meta keys", () => {
    expect(
      prepareForwardedParams({ name: "t", _meta: { progressToken: 0, traceparent: "00-x" } }),
    ).toEqual({ params: { name: "t", _meta: { traceparent: "00-x" } }, progressToken: 0 });
  });

  it("drops a _meta that held only the token", () => {
    expect(prepareForwardedParams({ name: "t", _meta: { progressToken: "p" } })).toEqual({
      params: { name: "t" },
      progressToken: "p",
    });
  });

  it("leaves params without _meta alone", () => {
    expect(prepareForwardedParams({ name: "t" })).toEqual({
      params: { name: "t" },
      progressToken: undefined,
    });
  });

  it("passes params without _meta on without copying them (forwarding hot path)", () => {
    const params = { name: "t", arguments: { path: "/tmp" } };
    expect(prepareForwardedParams(params).params).toBe(params);
  });

  it("copies a _meta without a token, as the last key or not, keys in the same order", () => {
    const handedOff = Symbol("handed off");
    const last = { name: "t", arguments: {}, _meta: { traceparent: "00-x" }, [handedOff]: 1 };
    const first = { _meta: { traceparent: "00-x" }, name: "t", arguments: {}, [handedOff]: 1 };
    for (const params of [last, first]) {
      const forwarded = prepareForwardedParams(params);
      expect(forwarded).toEqual({
        params: { name: "t", arguments: {}, _meta: { traceparent: "00-x" }, [handedOff]: 1 },
        progressToken: undefined,
      });
      expect(Object.keys(forwarded.params)).toEqual(["name", "arguments", "_meta"]);
      expect(forwarded.params).not.toBe(params);
      expect(forwarded.params._meta).not.toBe(params._meta);
    }
  });

  it("drops an empty _meta, last key or not", () => {
    expect(prepareForwardedParams({ name: "t", _meta: {} }).params).toEqual({ name: "t" });
    expect(prepareForwardedParams({ _meta: {}, name: "t" }).params).toEqual({ name: "t" });
  });

  it("ignores a token that is neither string nor number", () => {
    expect(prepareForwardedParams({ _meta: { progressToken: {} } }).progressToken).toBeUndefined();
  });
});

describe("rewriteResourceUris", () => {
  it("rewrites every uri, deep in contents and content blocks", () => {
    const result = rewriteResourceUris(
      {
        contents: [{ uri: "file:///a", text: "x" }],
        content: [
          { type: "resource_link", uri: "file:///a", name: "a" },
          { type: "text", text: "uri" },
        ],
      },
      (uri) => `patchbay://n/${uri}`,
    );
    expect(result).toEqual({
      contents: [{ uri: "patchbay://n/file:///a", text: "x" }],
      content: [
        { type: "resource_link", uri: "patchbay://n/file:///a", name: "a" },
        { type: "text", text: "uri" },
      ],
    });
  });

  it("rewrites the UI resource a tool result's _meta links to, and embedded ui:// resources", () => {
    const expose = (uri: string) =>
      uri.startsWith("ui://") ? uri.replace("ui://", "ui://n+") : uri;
    const result = rewriteResourceUris(
      {
        content: [
          { type: "resource", resource: { uri: "ui://dash/view.html", text: "<html>" } },
          { type: "resource_link", uri: "ui://dash/view.html", name: "view" },
        ],
        _meta: {
          ui: { resourceUri: "ui://dash/view.html" },
          "ui/resourceUri": "ui://dash/view.html",
          "openai/outputTemplate": "ui://dash/view.html",
        },
      },
      expose,
    );
    expect(result).toEqual({
      content: [
        { type: "resource", resource: { uri: "ui://n+dash/view.html", text: "<html>" } },
        { type: "resource_link", uri: "ui://n+dash/view.html", name: "view" },
      ],
      _meta: {
        ui: { resourceUri: "ui://n+dash/view.html" },
        "ui/resourceUri": "ui://n+dash/view.html",
        "openai/outputTemplate": "ui://n+dash/view.html",
      },
    });
  });
});
