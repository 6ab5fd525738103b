import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** This test package's folder (its node_modules provide zod-prev, @types/node, tsc and esbuild). */
export const packageDir = join(root, "tests", "packaging");

/** A package.json as far as packing and installing need it. */
export interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** A publishable workspace package: a folder under packages/ or apps/. */
export interface WorkspacePackage {
  dir: string;
  manifest: Manifest;
}

/** Reads a manifest. */
export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
}

/** Every package under packages/ and apps/, sorted by name. */
export function listPublishablePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"]) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const dir = join(root, group, entry.name);
      if (entry.isDirectory() && existsSync(join(dir, "package.json"))) {
        found.push({ dir, manifest: readManifest(dir) });
      }
    }
  }
  return found.sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/**
 * Finds where Node would load `name` from when imported by a file in `fromDir` (the pnpm layout
 * puts a package's own dependencies beside it), as a real path; undefined when it is not installed.
 */
export function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}
