import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const packageDir = join(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("package rules", () => {
  it("has no runtime dependencies", () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
  });

  it("imports nothing but its own files from src", () => {
    const foreign = sourceFiles(join(packageDir, "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)]
        .map((match) => match[1] ?? "")
        .filter((specifier) => !specifier.startsWith("./") && !specifier.startsWith("../"))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(foreign).toEqual([]);
  });

  it("builds without Node types", () => {
    const config = JSON.parse(readFileSync(join(packageDir, "tsconfig.build.json"), "utf8"));
    expect(config.compilerOptions.types).toEqual([]);
    expect(config.compilerOptions.lib).toEqual(["ES2023", "DOM"]);
  });
});
