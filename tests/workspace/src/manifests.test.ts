import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { allowedDependencies } from "./layers.js";
import { hasStarExport, readExportedNames } from "./public-surface.js";
import { listWorkspacePackages, root } from "./workspace.js";

const all = listWorkspacePackages();
const published = all.filter((pkg) => pkg.group === "packages");
const apps = all.filter((pkg) => pkg.group === "apps");
const repositoryUrl = "https://github.com/patchbay-mcp/patchbay";

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
});

describe("publishing", () => {
  it("has an MIT LICENSE at the root", () => {
    const license = readFileSync(join(root, "LICENSE"), "utf8");
    expect(license).toMatch(/^MIT License/);
    expect(license).toContain("Copyright (c) 2026 the Patchbay authors");
  });

  describe.each(all.map((pkg) => [pkg.manifest.name, pkg] as const))("%s", (_name, pkg) => {
    const { manifest } = pkg;
    const directory = relative(root, pkg.dir).split(sep).join("/");

    it("is publishable with the root LICENSE beside its manifest", () => {
      expect(manifest.private).not.toBe(true);
      expect(manifest.license).toBe("MIT");
      expect(readFileSync(join(pkg.dir, "LICENSE"), "utf8")).toBe(
        readFileSync(join(root, "LICENSE"), "utf8"),
      );
    });

    it("names its repository folder, homepage and issue tracker", () => {
      expect(manifest.repository).toEqual({
        type: "git",
        url: `git+${repositoryUrl}.git`,
        directory,
      });
      expect(manifest.homepage).toBe(`${repositoryUrl}/tree/main/${directory}#readme`);
      expect(manifest.bugs).toEqual({ url: `${repositoryUrl}/issues` });
    });

    it("links other Patchbay packages with a caret range", () => {
      for (const field of ["dependencies", "peerDependencies"] as const) {
        for (const [dep, spec] of Object.entries(manifest[field] ?? {})) {
          if (dep.startsWith("@patchbay/")) expect(spec, `${field}.${dep}`).toBe("workspace:^");
        }
      }
    });

    it("takes zod as a peer when it is a library, and pins it for tests", () => {
      const usesZod = Boolean(
        manifest.dependencies?.zod ||
          manifest.peerDependencies?.zod ||
          manifest.dependencies?.["@patchbay/mcp-types"] ||
          manifest.dependencies?.["@patchbay/client"] ||
          manifest.dependencies?.["@patchbay/server"] ||
          manifest.dependencies?.["@patchbay/router"],
      );
      if (!usesZod) return;
      if (pkg.group === "apps") {
        // An app installs its own zod, any 4.x, so it shares the one a project already has.
        expect(manifest.dependencies?.zod, "apps depend on zod themselves").toBe("^4.0.0");
        return;
      }
      expect(manifest.dependencies?.zod, "zod belongs in peerDependencies").toBeUndefined();
      expect(manifest.peerDependencies?.zod).toBe("^4.0.0");
      expect(manifest.devDependencies?.zod).toBe("catalog:");
    });

    it("does not point published READMEs at files by relative links", () => {
      const readme = readFileSync(join(pkg.dir, "README.md"), "utf8");
      const relativeLinks = [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1] ?? "")
        .filter((target) => !/^(https?:|mailto:|#)/.test(target));
      expect(relativeLinks).toEqual([]);
    });
  });

  describe.each(apps.map((pkg) => [pkg.manifest.name, pkg] as const))("app %s", (_name, pkg) => {
    it("ships its dist with a bin", () => {
      expect(pkg.manifest.files).toEqual(["dist"]);
      const bins = Object.values(pkg.manifest.bin ?? {});
      expect(bins.length).toBeGreaterThan(0);
      for (const bin of bins) expect(bin).toMatch(/^\.\/dist\/.+\.js$/);
    });
  });
});
