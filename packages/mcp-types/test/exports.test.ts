import { expect, it } from "vitest";
import * as mcpTypes from "../src/index.js";

it("pins the public runtime surface of the package root", () => {
  expect(Object.keys(mcpTypes).sort()).toMatchSnapshot();
});

it("exports one namespace per revision with the same method tables as REVISION_METHODS", () => {
  expect(mcpTypes.v2024_11_05.methods).toBe(mcpTypes.REVISION_METHODS["2024-11-05"]);
  expect(mcpTypes.v2025_03_26.methods).toBe(mcpTypes.REVISION_METHODS["2025-03-26"]);
  expect(mcpTypes.v2025_06_18.methods).toBe(mcpTypes.REVISION_METHODS["2025-06-18"]);
  expect(mcpTypes.v2025_11_25.methods).toBe(mcpTypes.REVISION_METHODS["2025-11-25"]);
  expect(mcpTypes.v2026_07_28.methods).toBe(mcpTypes.REVISION_METHODS["2026-07-28"]);
});

it("re-exports the latest revision (2026-07-28) at the root", () => {
  expect(mcpTypes.ToolSchema).toBe(mcpTypes.v2026_07_28.ToolSchema);
  expect(mcpTypes.methods).toBe(mcpTypes.v2026_07_28.methods);
  expect(mcpTypes.LATEST_PROTOCOL_VERSION).toBe("2026-07-28");
});

it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"])(
  "serves revision %s at its own subpath, the very module of its root namespace",
  async (revision) => {
    // Through the package's exports map (the built dist), as a consumer imports it.
    const root = (await import("@patchbay/mcp-types")) as unknown as Record<
      string,
      { methods: unknown }
    >;
    const subpath = (await import(`@patchbay/mcp-types/${revision}`)) as { methods: unknown };
    expect(subpath.methods).toBeDefined();
    expect(subpath.methods).toBe(root[`v${revision.replaceAll("-", "_")}`]?.methods);
  },
);
