import { describe, expect, it } from "vitest";
import { exposeUiResourceLinks, uiResourceUrisOf } from "./ui-resource-links.js";

const tool = {
  name: "show",
  _meta: {
    ui: { resourceUri: "ui://dash/view.html", visibility: ["model", "app"] },
    "ui/resourceUri": "ui://dash/view.html",
    "openai/outputTemplate": "ui://dash/openai.html",
    traceparent: "00-x",
  },
};

describe("MCP Apps UI links of a tool", () => {
  it("finds the nested link, the deprecated flat alias and the ChatGPT template, once each", () => {
    expect(uiResourceUrisOf(tool)).toEqual(["ui://dash/view.html", "ui://dash/openai.html"]);
    expect(uiResourceUrisOf({ name: "plain" })).toEqual([]);
    expect(uiResourceUrisOf({ name: "odd", _meta: { ui: { resourceUri: 7 } } })).toEqual([]);
  });

  it("rewrites every link and keeps the rest of _meta", () => {
    const exposed = exposeUiResourceLinks(tool, (uri) => uri.replace("ui://", "ui://n+"));
    expect(exposed).toEqual({
      name: "show",
      _meta: {
        ui: { resourceUri: "ui://n+dash/view.html", visibility: ["model", "app"] },
        "ui/resourceUri": "ui://n+dash/view.html",
        "openai/outputTemplate": "ui://n+dash/openai.html",
        traceparent: "00-x",
      },
    });
    expect(tool._meta.ui.resourceUri).toBe("ui://dash/view.html");
  });

  it("removes a link whose resource is not exposed, keeping the tool's other UI settings", () => {
    expect(exposeUiResourceLinks(tool, () => undefined)).toEqual({
      name: "show",
      _meta: { ui: { visibility: ["model", "app"] }, traceparent: "00-x" },
    });
  });

  it("returns the tool itself when no link changes", () => {
    expect(exposeUiResourceLinks(tool, (uri) => uri)).toBe(tool);
    const plain = { name: "plain" };
    expect(exposeUiResourceLinks(plain, () => "x")).toBe(plain);
  });
});
