import { describe, expect, it } from "vitest";
import { createNameCodec } from "../namespacing/qualified-name.js";
import { type BackendListing, buildCatalogue } from "./build-catalogue.js";
import type { ConflictPolicy } from "./conflict.js";
import { createNameFilter } from "./name-filter.js";
import { MAX_TEMPLATE_EXPRESSIONS } from "./resource-template-pattern.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

function build(listings: BackendListing[], conflictPolicy: ConflictPolicy = "prefix") {
  return buildCatalogue(listings, {
    codec: createNameCodec(),
    conflictPolicy,
    reservedToolNames: ["gateway_status", "get_events"],
  });
}

describe("buildCatalogue: tools and prompts", () => {
  it("namespaces every tool and keeps the rest of its definition", () => {
    const catalogue = build([
      { backend: "github", namespace: "github", tools: [tool("create_issue")] },
      { backend: "fs", namespace: "files", tools: [tool("read")] },
    ]);
    expect(catalogue.tools).toEqual([
      { name: "github__create_issue", inputSchema: { type: "object" } },
      { name: "files__read", inputSchema: { type: "object" } },
    ]);
    expect(catalogue.findTool("files__read")).toEqual({
      backend: "fs",
      name: "read",
      exposedName: "files__read",
    });
    expect(catalogue.conflicts).toEqual([]);
  });

  it("does not find a tool that no backend exposes", () => {
    const catalogue = build([{ backend: "a", namespace: "a", tools: [tool("x")] }]);
    expect(catalogue.findTool("x")).toBeUndefined();
    expect(catalogue.findTool("a__y")).toBeUndefined();
  });

  it("namespaces prompts like tools", () => {
    const catalogue = build([{ backend: "a", namespace: "a", prompts: [{ name: "greet" }] }]);
    expect(catalogue.prompts).toEqual([{ name: "a__greet" }]);
    expect(catalogue.findPrompt("a__greet")).toMatchObject({ backend: "a", name: "greet" });
  });

  it("maps a shortened tool name back to the backend's name", () => {
    const long = "t".repeat(100);
    const catalogue = build([{ backend: "a", namespace: "a", tools: [tool(long)] }]);
    const exposed = catalogue.tools[0]?.name ?? "";
    expect(exposed.length).toBeLessThanOrEqual(64);
    expect(catalogue.findTool(exposed)).toMatchObject({ backend: "a", name: long });
  });

  it("applies allow and deny lists to the backend's own tool names", () => {
    const catalogue = build([
      {
        backend: "fs",
        namespace: "fs",
        tools: [tool("read_file"), tool("write_file"), tool("read_dir")],
        toolFilter: createNameFilter({ allow: ["read_*"], deny: ["read_dir"] }),
      },
    ]);
    expect(catalogue.tools.map((item) => item.name)).toEqual(["fs__read_file"]);
    expect(catalogue.findTool("fs__write_file")).toBeUndefined();
  });

  it("lists exposed tool names per backend", () => {
    const catalogue = build([
      { backend: "a", namespace: "a", tools: [tool("x"), tool("y")] },
      { backend: "b", namespace: "b", tools: [tool("x")] },
    ]);
    expect(catalogue.toolNamesOf("a")).toEqual(["a__x", "a__y"]);
    expect(catalogue.toolNamesOf("missing")).toEqual([]);
  });
});

describe("buildCatalogue: conflicts", () => {
  const unprefixed: BackendListing[] = [
    { backend: "first", namespace: "", tools: [tool("search")] },
    { backend: "second", namespace: "", tools: [tool("search"), tool("other")] },
  ];

  it("prefix: exposes the later claimant under its backend key and reports it", () => {
    const catalogue = build(unprefixed, "prefix");
    expect(catalogue.tools.map((item) => item.name)).toEqual(["search", "second__search", "other"]);
    expect(catalogue.findTool("second__search")).toMatchObject({
      backend: "second",
      name: "search",
    });
    expect(catalogue.conflicts).toEqual([
      expect.objectContaining({
        kind: "tool",
        name: "search",
        claimants: ["first", "second"],
        winner: "first",
        resolution: "prefixed",
      }),
    ]);
  });

  it("priority: the backend listed first wins and the other is reported", () => {
    const catalogue = build(unprefixed, "priority");
    expect(catalogue.tools.map((item) => item.name)).toEqual(["search", "other"]);
    expect(catalogue.findTool("search")).toMatchObject({ backend: "first" });
    expect(catalogue.conflicts[0]).toMatchObject({ resolution: "dropped", winner: "first" });
    expect(catalogue.conflicts[0]?.message).toMatch(/first keeps it/);
  });

  it("error: reports the conflict as rejected", () => {
    const catalogue = build(unprefixed, "error");
    expect(catalogue.conflicts[0]).toMatchObject({ resolution: "rejected" });
  });

  it("keeps the gateway's own tool names for the gateway", () => {
    const catalogue = build([{ backend: "x", namespace: "", tools: [tool("gateway_status")] }]);
    expect(catalogue.findTool("gateway_status")).toBeUndefined();
    expect(catalogue.findTool("x__gateway_status")).toMatchObject({ backend: "x" });
    expect(catalogue.conflicts[0]).toMatchObject({
      claimants: ["gateway", "x"],
      winner: "gateway",
    });
  });

  it("drops under prefix when the backend key gives the same name", () => {
    const catalogue = build([
      { backend: "a", namespace: "shared", tools: [tool("t")] },
      { backend: "shared", namespace: "shared", tools: [tool("t")] },
    ]);
    expect(catalogue.tools.map((item) => item.name)).toEqual(["shared__t"]);
    expect(catalogue.conflicts[0]).toMatchObject({ resolution: "dropped" });
  });

  it("reports prompt conflicts too", () => {
    const catalogue = build(
      [
        { backend: "a", namespace: "", prompts: [{ name: "p" }] },
        { backend: "b", namespace: "", prompts: [{ name: "p" }] },
      ],
      "priority",
    );
    expect(catalogue.prompts).toEqual([{ name: "p" }]);
    expect(catalogue.conflicts[0]).toMatchObject({ kind: "prompt" });
  });
});

describe("buildCatalogue: resources", () => {
  it("keeps unique URIs unchanged", () => {
    const catalogue = build([
      { backend: "a", namespace: "a", resources: [{ uri: "file:///a", name: "a" }] },
      { backend: "b", namespace: "b", resources: [{ uri: "file:///b", name: "b" }] },
    ]);
    expect(catalogue.resources.map((item) => item.uri)).toEqual(["file:///a", "file:///b"]);
    expect(catalogue.findResource("file:///b")).toMatchObject({ backend: "b", name: "file:///b" });
    expect(catalogue.exposeResourceUri("b", "file:///b")).toBe("file:///b");
  });

  it("rewrites colliding URIs reversibly under prefix", () => {
    const catalogue = build([
      { backend: "a", namespace: "a", resources: [{ uri: "file:///x", name: "x" }] },
      { backend: "b", namespace: "", resources: [{ uri: "file:///x", name: "x" }] },
    ]);
    expect(catalogue.resources.map((item) => item.uri)).toEqual([
      "patchbay://a/file:///x",
      "patchbay://b/file:///x",
    ]);
    expect(catalogue.findResource("patchbay://b/file:///x")).toMatchObject({
      backend: "b",
      name: "file:///x",
    });
    expect(catalogue.exposeResourceUri("a", "file:///x")).toBe("patchbay://a/file:///x");
    expect(catalogue.conflicts[0]).toMatchObject({ kind: "resource", resolution: "rewritten" });
  });

  it("keeps the first backend's resource under priority", () => {
    const catalogue = build(
      [
        { backend: "a", namespace: "a", resources: [{ uri: "file:///x", name: "x" }] },
        { backend: "b", namespace: "b", resources: [{ uri: "file:///x", name: "x" }] },
      ],
      "priority",
    );
    expect(catalogue.resources).toEqual([{ uri: "file:///x", name: "x" }]);
    expect(catalogue.findResource("file:///x")).toMatchObject({ backend: "a" });
  });

  it("routes a URI that matches a backend's template to that backend", () => {
    const catalogue = build([
      {
        backend: "a",
        namespace: "a",
        resourceTemplates: [{ uriTemplate: "notes://{id}", name: "n" }],
      },
      {
        backend: "b",
        namespace: "b",
        resourceTemplates: [{ uriTemplate: "file:///{+path}", name: "f" }],
      },
    ]);
    expect(catalogue.findResource("file:///etc/hosts")).toMatchObject({
      backend: "b",
      name: "file:///etc/hosts",
    });
    expect(catalogue.findResource("notes://7")).toMatchObject({ backend: "a" });
    expect(catalogue.findResource("unknown://x")).toBeUndefined();
  });

  it("lists a template past the expression limit but routes no URI by it", () => {
    const tooMany = `x://${"{a}".repeat(MAX_TEMPLATE_EXPRESSIONS + 1)}`;
    const catalogue = build([
      { backend: "a", namespace: "a", resourceTemplates: [{ uriTemplate: tooMany, name: "x" }] },
      { backend: "b", namespace: "b", resourceTemplates: [{ uriTemplate: "y://{k}", name: "y" }] },
    ]);
    expect(catalogue.resourceTemplates.map((item) => item.uriTemplate)).toContain(tooMany);
    expect(catalogue.findResource("x://aaaa")).toBeUndefined();
    expect(catalogue.findResource("y://k")).toMatchObject({ backend: "b" });
  });

  it("routes any URI to the only backend offering resources", () => {
    const catalogue = build([
      { backend: "a", namespace: "a", resources: [{ uri: "file:///a", name: "a" }] },
      { backend: "b", namespace: "b", tools: [tool("t")] },
    ]);
    expect(catalogue.findResource("file:///elsewhere")).toMatchObject({ backend: "a" });
  });

  it("rewrites colliding templates", () => {
    const catalogue = build([
      {
        backend: "a",
        namespace: "a",
        resourceTemplates: [{ uriTemplate: "mem://{k}", name: "m" }],
      },
      {
        backend: "b",
        namespace: "b",
        resourceTemplates: [{ uriTemplate: "mem://{k}", name: "m" }],
      },
    ]);
    expect(catalogue.resourceTemplates.map((item) => item.uriTemplate)).toEqual([
      "patchbay://a/mem://{k}",
      "patchbay://b/mem://{k}",
    ]);
    expect(catalogue.findResource("patchbay://b/mem://7")).toMatchObject({
      backend: "b",
      name: "mem://7",
    });
    // Read results and updates of a URI from a rewritten template come back in the rewritten form.
    expect(catalogue.exposeResourceUri("b", "mem://7")).toBe("patchbay://b/mem://7");
    expect(catalogue.exposeResourceUri("b", "other://7")).toBe("other://7");
  });
});

describe("buildCatalogue: which backends need URI rewriting", () => {
  it("names only backends with a rewritten URI", () => {
    const catalogue = build([
      { backend: "a", namespace: "a", resources: [{ uri: "file:///x", name: "x" }] },
      { backend: "b", namespace: "b", resources: [{ uri: "file:///x", name: "x" }] },
      { backend: "c", namespace: "c", resources: [{ uri: "file:///c", name: "c" }] },
    ]);
    expect(catalogue.rewritesUrisOf("a")).toBe(true);
    expect(catalogue.rewritesUrisOf("b")).toBe(true);
    expect(catalogue.rewritesUrisOf("c")).toBe(false);
  });
});

describe("buildCatalogue: MCP Apps (ui:// resources and the tools that link to them)", () => {
  const html = "text/html;profile=mcp-app";
  const appTool = (name: string, uri: string) => ({
    name,
    inputSchema: { type: "object" },
    _meta: { ui: { resourceUri: uri, visibility: ["model", "app"] }, "ui/resourceUri": uri },
  });
  const appBackend = (backend: string, namespace = backend): BackendListing => ({
    backend,
    namespace,
    tools: [appTool("show", "ui://dash/view.html")],
    resources: [{ uri: "ui://dash/view.html", name: "view", mimeType: html }],
  });

  it("rewrites a shared ui:// URI keeping its scheme, in resources and in each tool's links", () => {
    const catalogue = build([appBackend("a", "alpha"), appBackend("b", "")]);
    expect(catalogue.resources).toEqual([
      { uri: "ui://alpha+dash/view.html", name: "view", mimeType: html },
      { uri: "ui://b+dash/view.html", name: "view", mimeType: html },
    ]);
    expect(catalogue.tools.map((item) => item._meta)).toEqual([
      {
        ui: { resourceUri: "ui://alpha+dash/view.html", visibility: ["model", "app"] },
        "ui/resourceUri": "ui://alpha+dash/view.html",
      },
      {
        ui: { resourceUri: "ui://b+dash/view.html", visibility: ["model", "app"] },
        "ui/resourceUri": "ui://b+dash/view.html",
      },
    ]);
    expect(catalogue.findResource("ui://b+dash/view.html")).toEqual({
      backend: "b",
      name: "ui://dash/view.html",
      exposedName: "ui://b+dash/view.html",
    });
    expect(catalogue.exposeResourceUri("a", "ui://dash/view.html")).toBe(
      "ui://alpha+dash/view.html",
    );
    expect(catalogue.conflicts).toEqual([
      expect.objectContaining({
        kind: "resource",
        resolution: "rewritten",
        message: expect.stringContaining("ui://<namespace>+dash/view.html"),
      }),
    ]);
  });

  it("leaves a ui:// URI only one backend uses, and its tool, as they are", () => {
    const catalogue = build([
      appBackend("a"),
      { backend: "b", namespace: "b", tools: [tool("t")] },
    ]);
    expect(catalogue.resources.map((item) => item.uri)).toEqual(["ui://dash/view.html"]);
    expect(catalogue.tools[0]?._meta).toEqual(appTool("x", "ui://dash/view.html")._meta);
    expect(catalogue.rewritesUrisOf("a")).toBe(false);
  });

  it("counts a UI resource a tool links to but resources/list omits as its backend's", () => {
    const unlisted = (backend: string): BackendListing => ({
      backend,
      namespace: backend,
      tools: [appTool("show", "ui://dash/view.html")],
      resources: [{ uri: `file:///${backend}`, name: backend }],
    });
    const catalogue = build([unlisted("a"), unlisted("b")]);
    expect(catalogue.resources.map((item) => item.uri)).toEqual(["file:///a", "file:///b"]);
    expect(
      catalogue.tools.map((item) => (item._meta as { ui: { resourceUri: string } }).ui),
    ).toEqual([
      { resourceUri: "ui://a+dash/view.html", visibility: ["model", "app"] },
      { resourceUri: "ui://b+dash/view.html", visibility: ["model", "app"] },
    ]);
    expect(catalogue.findResource("ui://b+dash/view.html")).toMatchObject({
      backend: "b",
      name: "ui://dash/view.html",
    });
    expect(catalogue.rewritesUrisOf("a")).toBe(true);
    // Not shared: routed to the backend whose tool links to it, though two backends have resources.
    const single = build([
      { ...unlisted("a"), tools: [appTool("show", "ui://only-a/view.html")] },
      unlisted("b"),
    ]);
    expect(single.findResource("ui://only-a/view.html")).toMatchObject({ backend: "a" });
  });

  it("under priority, removes the link of a tool whose UI resource lost to another backend", () => {
    const catalogue = build([appBackend("a"), appBackend("b")], "priority");
    expect(catalogue.resources.map((item) => item.uri)).toEqual(["ui://dash/view.html"]);
    expect(catalogue.tools.map((item) => item._meta)).toEqual([
      appTool("x", "ui://dash/view.html")._meta,
      { ui: { visibility: ["model", "app"] } },
    ]);
    expect(catalogue.findResource("ui://dash/view.html")).toMatchObject({ backend: "a" });
  });

  it("rewrites shared ui:// templates keeping the scheme", () => {
    const template = (backend: string): BackendListing => ({
      backend,
      namespace: backend,
      resourceTemplates: [{ uriTemplate: "ui://widget/{id}", name: "w", mimeType: html }],
    });
    const catalogue = build([template("a"), template("b")]);
    expect(catalogue.resourceTemplates.map((item) => item.uriTemplate)).toEqual([
      "ui://a+widget/{id}",
      "ui://b+widget/{id}",
    ]);
    expect(catalogue.findResource("ui://b+widget/7")).toMatchObject({
      backend: "b",
      name: "ui://widget/7",
    });
    expect(catalogue.exposeResourceUri("b", "ui://widget/7")).toBe("ui://b+widget/7");
  });

  it("keeps a URI a backend lists as is, though it also matches its rewritten template", () => {
    const catalogue = build([
      {
        backend: "a",
        namespace: "a",
        resources: [{ uri: "ui://widget/main", name: "main" }],
        resourceTemplates: [{ uriTemplate: "ui://widget/{id}", name: "w" }],
      },
      {
        backend: "b",
        namespace: "b",
        resourceTemplates: [{ uriTemplate: "ui://widget/{id}", name: "w" }],
      },
    ]);
    expect(catalogue.resources.map((item) => item.uri)).toEqual(["ui://widget/main"]);
    expect(catalogue.exposeResourceUri("a", "ui://widget/main")).toBe("ui://widget/main");
    expect(catalogue.exposeResourceUri("a", "ui://widget/7")).toBe("ui://a+widget/7");
  });

  it("refuses a URI another backend publishes in the rewritten form of a backend's namespace", () => {
    const squatter: BackendListing = {
      backend: "mallory",
      namespace: "mallory",
      tools: [appTool("show", "ui://alpha+dash/view.html")],
      resources: [
        { uri: "ui://alpha+dash/view.html", name: "fake", mimeType: html },
        { uri: "patchbay://alpha/file:///x", name: "fake" },
      ],
    };
    const catalogue = build([squatter, appBackend("a", "alpha"), appBackend("b")]);
    expect(catalogue.resources.map((item) => item.uri)).toEqual([
      "ui://alpha+dash/view.html",
      "ui://b+dash/view.html",
    ]);
    expect(catalogue.findResource("ui://alpha+dash/view.html")).toMatchObject({ backend: "a" });
    expect(catalogue.tools.find((item) => item.name === "mallory__show")?._meta).toEqual({
      ui: { visibility: ["model", "app"] },
    });
    expect(catalogue.conflicts.filter((conflict) => conflict.resolution === "refused")).toEqual([
      expect.objectContaining({ name: "ui://alpha+dash/view.html", winner: "a" }),
      expect.objectContaining({ name: "patchbay://alpha/file:///x", winner: "a" }),
    ]);
    // Also while the owner is down: its namespace is still its own.
    const alone = buildCatalogue([squatter], {
      codec: createNameCodec(),
      conflictPolicy: "prefix",
      namespaces: [
        { backend: "mallory", namespace: "mallory" },
        { backend: "a", namespace: "alpha" },
      ],
    });
    expect(alone.resources).toEqual([]);
  });
});
