import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseAllDocuments, stringify } from "yaml";

// A project outside the workspace that installs with `pnpm install --frozen-lockfile --offline`
// installs exactly the lockfile it is given: no version is resolved at test time. This module writes
// that lockfile from the workspace's, so every registry package, transitive ones included, is the
// version the workspace pins (and so one its frozen install put in the store).

/** A registry dependency resolved as a workspace importer resolves it. */
export interface RegistryDependency {
  name: string;
  /** The workspace importer (e.g. `tests/interop`) whose resolution the project takes. */
  importer: string;
}

/** A packed workspace package, installed from its tarball. */
export interface LocalTarball {
  /** The tarball's file name, relative to the project. */
  file: string;
  /** The packed `package.json` (its `workspace:` and `catalog:` ranges already made real). */
  manifest: PackedManifest;
  /** The workspace importer the package was packed from (its registry dependencies' source). */
  importer: string;
}

/** The fields of a packed manifest that the lockfile records. */
export interface PackedManifest {
  name: string;
  version: string;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** What a trial project needs: its lockfile text, and the `dependencies` its package.json lists. */
export interface TrialLockfile {
  lockfile: string;
  dependencies: Record<string, string>;
  /** Every registry package the lockfile installs, as `name@version`. */
  registryPackages: string[];
}

interface LockfileEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

interface WorkspaceLockfile {
  importers: Record<string, Record<string, Record<string, { specifier: string; version: string }>>>;
  packages: Record<string, LockfileEntry>;
  snapshots: Record<string, LockfileEntry>;
}

/** The main document of a pnpm lockfile (pnpm 11+ writes one for the package manager itself first). */
export function readWorkspaceLockfile(path: string): WorkspaceLockfile {
  const documents = parseAllDocuments(readFileSync(path, "utf8"));
  const lockfiles = (Array.isArray(documents) ? documents : [documents]).map(
    (document) => document.toJS() as Partial<WorkspaceLockfile>,
  );
  const main = lockfiles.findLast((lockfile) => lockfile.snapshots !== undefined);
  if (main?.importers === undefined || main.packages === undefined) {
    throw new Error(`${path} has no importers, packages and snapshots`);
  }
  return main as WorkspaceLockfile;
}

/** The `name@version(peers)` key of a dependency entry (an alias value names its package itself). */
function snapshotKey(name: string, version: string): string {
  if (version.startsWith("link:") || version.startsWith("file:")) {
    throw new Error(`${name} is ${version} in the workspace, not a registry package`);
  }
  const bare = version.split("(")[0] as string;
  return bare.lastIndexOf("@") > 0 ? version : `${name}@${version}`;
}

/** `name@version` without the peer suffix: the key of the `packages` section. */
function packageKey(key: string): string {
  return key.split("(")[0] as string;
}

function resolvedInImporter(workspace: WorkspaceLockfile, importer: string, name: string): string {
  const sections = workspace.importers[importer];
  if (sections === undefined) throw new Error(`the workspace lockfile has no importer ${importer}`);
  for (const section of ["dependencies", "devDependencies", "optionalDependencies"]) {
    const version = sections[section]?.[name]?.version;
    if (version !== undefined) return version;
  }
  throw new Error(`${importer} does not depend on ${name} in the workspace lockfile`);
}

/** Every snapshot reachable from `roots`, keyed as in the workspace lockfile. */
function closure(workspace: WorkspaceLockfile, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
    if (seen.has(key)) continue;
    const snapshot = workspace.snapshots[key];
    if (snapshot === undefined) throw new Error(`the workspace lockfile has no snapshot ${key}`);
    seen.add(key);
    for (const edges of [snapshot.dependencies, snapshot.optionalDependencies]) {
      for (const [name, version] of Object.entries(edges ?? {})) {
        queue.push(snapshotKey(name, version));
      }
    }
  }
  return seen;
}

/** The subresource integrity of a file, as pnpm records a tarball's. */
export function integrityOf(path: string): string {
  return `sha512-${createHash("sha512").update(readFileSync(path)).digest("base64")}`;
}

/**
 * The lockfile of a project that installs `registry` and `tarballs` (with `overrides` as its
 * pnpm-workspace.yaml gives them), every registry package at the workspace lockfile's version.
 * `integrity` gives each tarball's SRI hash. Throws when anything is not in the workspace lockfile.
 */
export function deriveTrialLockfile(options: {
  workspace: WorkspaceLockfile;
  registry: readonly RegistryDependency[];
  tarballs: readonly LocalTarball[];
  integrity: (file: string) => string;
  overrides: Record<string, string>;
}): TrialLockfile {
  const { workspace, tarballs } = options;
  const localVersion = new Map(
    tarballs.map((tarball) => [tarball.manifest.name, `file:${tarball.file}`]),
  );
  const top = new Map<string, string>();
  for (const dependency of options.registry) {
    top.set(dependency.name, resolvedInImporter(workspace, dependency.importer, dependency.name));
  }
  const roots = [...top].map(([name, version]) => snapshotKey(name, version));
  const packages: Record<string, unknown> = {};
  const snapshots: Record<string, unknown> = {};
  const tarballKeys = new Map<string, string>();

  for (const { file, manifest, importer } of tarballs) {
    const dependencies: Record<string, string> = {};
    const optionalDependencies: Record<string, string> = {};
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      const local = localVersion.get(name);
      const version = local ?? resolvedInImporter(workspace, importer, name);
      if (local === undefined) roots.push(snapshotKey(name, version));
      dependencies[name] = version;
    }
    // Peers resolve to the project's own dependencies, as pnpm resolves them at the root.
    const peers: string[] = [];
    for (const name of Object.keys(manifest.peerDependencies ?? {}).sort()) {
      const version = top.get(name) ?? localVersion.get(name);
      if (version === undefined) {
        if (manifest.peerDependenciesMeta?.[name]?.optional === true) continue;
        throw new Error(
          `${manifest.name} needs the peer ${name}, which the project does not install`,
        );
      }
      const optional = manifest.peerDependenciesMeta?.[name]?.optional === true;
      (optional ? optionalDependencies : dependencies)[name] = version;
      peers.push(`(${name}@${version})`);
    }
    const key = `${manifest.name}@file:${file}`;
    packages[key] = {
      resolution: { integrity: options.integrity(file), tarball: `file:${file}` },
      version: manifest.version,
      ...(manifest.engines === undefined ? {} : { engines: manifest.engines }),
      ...(manifest.peerDependencies === undefined
        ? {}
        : { peerDependencies: manifest.peerDependencies }),
      ...(manifest.peerDependenciesMeta === undefined
        ? {}
        : { peerDependenciesMeta: manifest.peerDependenciesMeta }),
    };
    tarballKeys.set(manifest.name, `file:${file}${peers.join("")}`);
    snapshots[`${key}${peers.join("")}`] = {
      ...(Object.keys(dependencies).length === 0 ? {} : { dependencies }),
      ...(Object.keys(optionalDependencies).length === 0 ? {} : { optionalDependencies }),
    };
  }

  const registryPackages = new Set<string>();
  for (const key of [...closure(workspace, roots)].sort()) {
    const entry = workspace.packages[packageKey(key)];
    if (entry === undefined) throw new Error(`the workspace lockfile has no package ${key}`);
    packages[packageKey(key)] = entry;
    snapshots[key] = workspace.snapshots[key];
    registryPackages.add(packageKey(key));
  }

  const importer: Record<string, { specifier: string; version: string }> = {};
  const dependencies: Record<string, string> = {};
  for (const [name, version] of top) {
    const specifier = packageKey(snapshotKey(name, version)).slice(name.length + 1);
    importer[name] = { specifier, version };
    dependencies[name] = specifier;
  }
  for (const { file, manifest } of tarballs) {
    importer[manifest.name] = {
      specifier: `file:${file}`,
      version: tarballKeys.get(manifest.name) as string,
    };
    dependencies[manifest.name] = `file:${file}`;
  }

  const lockfile = {
    lockfileVersion: "9.0",
    settings: { autoInstallPeers: true, excludeLinksFromLockfile: false },
    ...(Object.keys(options.overrides).length === 0 ? {} : { overrides: options.overrides }),
    importers: { ".": { dependencies: sortedRecord(importer) } },
    packages: sortedRecord(packages),
    snapshots: sortedRecord(snapshots),
  };
  return {
    lockfile: stringify(lockfile, { lineWidth: 0 }),
    dependencies: sortedRecord(dependencies),
    registryPackages: [...registryPackages],
  };
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}
