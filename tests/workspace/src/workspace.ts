import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** A workspace package as its manifest describes it. */
export interface WorkspacePackage {
  dir: string;
  group: "packages" | "apps";
  manifest: {
    name: string;
    private?: boolean;
    version?: string;
    license?: string;
    repository?: unknown;
    homepage?: string;
    bugs?: unknown;
    bin?: Record<string, string>;
    scripts?: Record<string, string>;
    type?: string;
    sideEffects?: boolean;
    files?: string[];
    engines?: Record<string, string>;
    exports?: Record<string, unknown>;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

/** Every package under packages/ and apps/. */
export function listWorkspacePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"] as const) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const dir = join(groupDir, entry.name);
      const manifestPath = join(dir, "package.json");
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      found.push({ dir, group, manifest: JSON.parse(readFileSync(manifestPath, "utf8")) });
    }
  }
  return found.sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}
