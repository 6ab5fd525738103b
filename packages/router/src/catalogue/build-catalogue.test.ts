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
