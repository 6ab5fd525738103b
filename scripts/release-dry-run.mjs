#!/usr/bin/env node
// The release flow without publishing (see RELEASING.md): `changeset status` must pass (since the
// last release), and `pnpm -r publish --dry-run` must publish every package under packages/ and
// apps/. It needs no registry access. Prints one line per package, then "ok".
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function run(args) {
  const result = spawnSync("pnpm", args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(`pnpm ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  return `${result.stdout}${result.stderr}`;
}

const publishable = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(root, group, name, "package.json"))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")))
    .filter((manifest) => manifest.private !== true),
);

// A package changed since the last release needs a changeset. The last release is the commit that
// last wrote a CHANGELOG.md (`changeset version` writes them); before the first one, the base
// branch (changesets' default). Comparing with the base branch after a release would count the
// release's own version bumps as changes without a changeset.
const lastRelease = spawnSync(
  "git",
  ["log", "-1", "--format=%H", "--", "packages/*/CHANGELOG.md", "apps/*/CHANGELOG.md"],
  { cwd: root, encoding: "utf8" },
).stdout.trim();
run(["changeset", "status", ...(lastRelease ? ["--since", lastRelease] : [])]);
const output = run(["-r", "publish", "--dry-run", "--no-git-checks", "--access", "public"]);
// pnpm prints "📦 <name>@<version> → <registry>" for each package it would publish. What each
// tarball holds (LICENSE, README.md, dist) is checked by tests/packaging, which packs them all.
const missing = publishable
  .map(({ name, version }) => `${name}@${version}`)
  .filter((id) => !output.includes(`${id} →`));
for (const { name, version } of publishable) {
  if (!missing.includes(`${name}@${version}`))
    console.log(`${name}@${version}: would be published`);
}
if (missing.length > 0) {
  console.error(`not published by the dry run: ${missing.join(", ")}`);
  process.exit(1);
}
console.log("ok");
