import { describe, expect, it } from "vitest";
import {
  findImportCycles,
  findLongFunctions,
  MAX_FUNCTION_LINES,
  packageSourceFiles,
} from "./code-shape.js";
import { listWorkspacePackages } from "./workspace.js";

const packages = listWorkspacePackages();

describe("code shape", () => {
  it(`has no function over ${MAX_FUNCTION_LINES} lines in packages/*/src or apps/*/src`, () => {
    const files = packages.flatMap((pkg) => packageSourceFiles(pkg.dir));
    const offenders = findLongFunctions(files).map(
      (found) => `${found.file}:${found.line} ${found.name} (${found.lines} lines)`,
    );
    expect(offenders).toEqual([]);
  });

  it.each(packages.map((pkg) => [pkg.manifest.name, pkg.dir] as const))(
    "%s has no import cycle among its source files",
    (_name, dir) => {
      const cycles = findImportCycles(packageSourceFiles(dir)).map((cycle) => cycle.join(" -> "));
      expect(cycles).toEqual([]);
    },
  );

  it("measures a function from its first line to its last", async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "code-shape-"));
    try {
      const file = join(dir, "sample.ts");
      const body = Array.from({ length: 149 }, (_, index) => `  const v${index} = ${index};`);
      writeFileSync(
        file,
        [
          "export function fits() {",
          ...body.slice(0, 148),
          "}",
          "export const long = () => {",
          ...body,
          "};",
        ].join("\n"),
      );
      expect(findLongFunctions([file]).map((found) => [found.name, found.lines])).toEqual([
        ["long", 151],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds a cycle of imports, type-only ones included", async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "code-shape-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b.js";\nexport type A = B;\n');
      writeFileSync(join(dir, "b.ts"), 'import { c } from "./c.js";\nexport type B = typeof c;\n');
      writeFileSync(join(dir, "c.ts"), 'export type { A } from "./a.js";\nexport const c = 1;\n');
      const files = ["a.ts", "b.ts", "c.ts"].map((name) => join(dir, name));
      expect(findImportCycles(files)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
