import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { listWorkspacePackages, root } from "./workspace.js";

const changesetDir = join(root, ".changeset");
const changesetCli = join(root, "node_modules", ".bin", "changeset");

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Runs `changeset version` on a workspace of `packages` with one changeset, returns the new versions. */
function versionFixture(
  packages: { name: string; version: string; peerDependencies?: Record<string, string> }[],
  changeset: string,
): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "patchbay-release-rule-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeJson(join(dir, "package.json"), {
    name: "fixture",
    private: true,
    workspaces: ["packages/*"],
  });
  for (const manifest of packages) {
    mkdirSync(join(dir, "packages", manifest.name), { recursive: true });
    writeJson(join(dir, "packages", manifest.name, "package.json"), manifest);
  }
  mkdirSync(join(dir, ".changeset"));
  const config = JSON.parse(readFileSync(join(changesetDir, "config.json"), "utf8"));
  writeJson(join(dir, ".changeset", "config.json"), { ...config, changelog: false });
  writeFileSync(join(dir, ".changeset", "change.md"), changeset);
  const result = spawnSync(changesetCli, ["version"], { cwd: dir, encoding: "utf8" });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return Object.fromEntries(
    packages.map(({ name }) => [
      name,
      JSON.parse(readFileSync(join(dir, "packages", name, "package.json"), "utf8")).version,
    ]),
  );
}

describe("below 1.0, a breaking change is a minor bump (RELEASING.md)", () => {
  it("a 0.x package whose peer dependency leaves its range gets a minor bump, a 1.x one a major", () => {
    const versions = versionFixture(
      [
        { name: "core", version: "0.1.0" },
        { name: "young", version: "0.1.0", peerDependencies: { core: "^0.1.0" } },
        { name: "stable", version: "1.2.0", peerDependencies: { core: "^0.1.0" } },
      ],
      '---\n"core": minor\n---\n\nA breaking change.\n',
    );
    expect(versions).toEqual({ core: "0.2.0", young: "0.2.0", stable: "2.0.0" });
  }, 30_000);

  it("no changeset asks for a major bump of a package below 1.0", () => {
    const versions = new Map(
      listWorkspacePackages().map((pkg) => [pkg.manifest.name, pkg.manifest.version ?? "0.0.0"]),
    );
    const majors = readdirSync(changesetDir)
      .filter((file) => file.endsWith(".md") && file !== "README.md")
      .flatMap((file) =>
        [...readFileSync(join(changesetDir, file), "utf8").matchAll(/^"([^"]+)": major$/gm)]
          .map((match) => match[1] ?? "")
          .filter((name) => versions.get(name)?.startsWith("0."))
          .map((name) => `${file}: ${name}`),
      );
    expect(majors).toEqual([]);
  });
});
