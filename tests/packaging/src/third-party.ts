import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { type Manifest, readManifest, resolvePackageDir } from "./workspace.js";

/** A third-party package found in the workspace's node_modules, to be packed for the consumer. */
export interface ThirdPartyPackage {
  name: string;
  version: string;
  dir: string;
}

/** Runtime dependencies, peers, and optional peers that the workspace has installed. */
function runtimeDependencies(manifest: Manifest, dir: string): string[] {
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  return names.filter(
    (name) =>
      manifest.peerDependenciesMeta?.[name]?.optional !== true ||
      resolvePackageDir(name, dir) !== undefined,
  );
}

/**
 * The closure of third-party packages that `roots` need at run time, taken from node_modules (what
 * the lockfile brought), with `pinned` overriding where a name is found. Throws when two versions of
 * one name would be needed: the consumer project installs each name once, from a local tarball.
 */
export function collectThirdParty(
  roots: readonly { dir: string; manifest: Manifest }[],
  pinned: ReadonlyMap<string, string>,
): ThirdPartyPackage[] {
  const found = new Map<string, ThirdPartyPackage>();
  const queue = roots.map((pkg) => ({ from: pkg.dir, manifest: pkg.manifest }));
  while (queue.length > 0) {
    const { from, manifest } = queue.shift() as (typeof queue)[number];
    for (const name of runtimeDependencies(manifest, from)) {
      if (name.startsWith("@patchbay/")) continue;
      const dir = pinned.get(name) ?? resolvePackageDir(name, from);
      if (dir === undefined) {
        throw new Error(`${manifest.name} needs ${name}, which is not installed in the workspace`);
      }
      const dependency = readManifest(dir);
      const seen = found.get(name);
      if (seen !== undefined) {
        if (seen.version !== dependency.version) {
          throw new Error(`${name} is needed at ${seen.version} and ${dependency.version}`);
        }
        continue;
      }
      found.set(name, { name, version: dependency.version, dir });
      queue.push({ from: dir, manifest: dependency });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Packs an installed package folder as npm would publish it (`package/` prefix). npm's own `pack`
 * cannot be used on a folder of the pnpm store, and the folder holds only published files already.
 * The store hard-links files of equal content, and npm drops link entries when it unpacks, so links
 * are stored as files.
 */
export function packInstalledPackage(pkg: ThirdPartyPackage, destination: string): string {
  const file = join(
    destination,
    `${pkg.name.replace("@", "").replace("/", "-")}-${pkg.version}.tgz`,
  );
  execFileSync("tar", [
    "-czf",
    file,
    "--hard-dereference",
    "--transform",
    "s,^\\.,package,",
    "-C",
    pkg.dir,
    ".",
  ]);
  return file;
}
