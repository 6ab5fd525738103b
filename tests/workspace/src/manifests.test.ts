import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allowedDependencies } from "./layers.js";
import { hasStarExport, readExportedNames } from "./public-surface.js";
import { listWorkspacePackages, root } from "./workspace.js";

const all = listWorkspacePackages();
const published = all.filter((pkg) => pkg.group === "packages");
const apps = all.filter((pkg) => pkg.group === "apps");

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) files.push(path);
  }
  return files;
}

function changesetMentions(name: string): boolean {
  const dir = join(root, ".changeset");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .some((file) => readFileSync(join(dir, file), "utf8").includes(`"${name}"`));
}

describe("published packages", () => {
  it("exist", () => {
    expect(published.map((pkg) => pkg.manifest.name)).toContain("@patchbay/jsonrpc-core");
  });

  describe.each(published.map((pkg) => [pkg.manifest.name, pkg] as const))("%s", (name, pkg) => {
    const { manifest } = pkg;

    it("is an ESM package in the @patchbay scope without side effects", () => {
      expect(name.startsWith("@patchbay/")).toBe(true);
      expect(manifest.private).not.toBe(true);
      expect(manifest.type).toBe("module");
      expect(manifest.sideEffects).toBe(false);
    });

    it("publishes only dist and states its engines", () => {
      expect(manifest.files).toEqual(["dist"]);
      expect(manifest.engines?.node).toBe(">=20.19");
    });

    it("has an exports map whose conditions list types first", () => {
      expect(manifest.exports).toBeDefined();
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        if (typeof target === "string") continue;
        expect(Object.keys(target as object)[0], `exports["${subpath}"]`).toBe("types");
      }
    });

    it("has a README with an example", () => {
      const readme = join(pkg.dir, "README.md");
      expect(existsSync(readme)).toBe(true);
      expect(readFileSync(readme, "utf8")).toMatch(/```ts/);
    });

    it("lists its public surface by name", () => {
      expect(hasStarExport(pkg.dir)).toBe(false);
      expect(readExportedNames(pkg.dir)).toMatchSnapshot();
    });

    it("has a changeset or a changelog", () => {
      expect(existsSync(join(pkg.dir, "CHANGELOG.md")) || changesetMentions(name)).toBe(true);
    });
  });
});

describe("layers", () => {
  it.each(published.map((pkg) => [pkg.manifest.name, pkg] as const))(
    "%s depends only on the layers below it",
    (name, pkg) => {
      const allowed = allowedDependencies[name];
      expect(allowed, `${name} needs an entry in tests/workspace/src/layers.ts`).toBeDefined();
      const runtime = Object.keys({
        ...pkg.manifest.dependencies,
        ...pkg.manifest.peerDependencies,
      }).filter((dep) => dep.startsWith("@patchbay/"));
      expect(runtime.filter((dep) => !allowed?.includes(dep))).toEqual([]);
      const imported = new Set<string>();
      for (const file of sourceFiles(join(pkg.dir, "src"))) {
        for (const match of readFileSync(file, "utf8").matchAll(/from\s+"(@patchbay\/[^/"]+)/g)) {
          if (match[1]) imported.add(match[1]);
        }
      }
      imported.delete(name);
      expect([...imported].filter((dep) => !allowed?.includes(dep))).toEqual([]);
    },
  );

  it("keeps apps private", () => {
    for (const app of apps) expect(app.manifest.private, app.manifest.name).toBe(true);
  });
});
