import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { collectThirdParty, packInstalledPackage } from "./third-party.js";
import { listPublishablePackages, packageDir, resolvePackageDir } from "./workspace.js";

const run = promisify(execFile);

/**
 * Packages packed and inspected but not installed: `@patchbay/contract-tests` needs `vitest` as a
 * peer, whose tree (vite, rollup, native binaries) is out of scope for an offline consumer project.
 */
export const NOT_INSTALLED = new Set(["@patchbay/contract-tests"]);

/** The zod version the consumer installs: one patch away from the workspace's. */
export const CONSUMER_ZOD_DIR = resolvePackageDir("zod-prev", packageDir);

/** A temporary npm project with every Patchbay tarball installed, and how to run things in it. */
export interface ConsumerProject {
  dir: string;
  /** Tarball path by package name, for every workspace package. */
  tarballs: Map<string, string>;
  /** An environment in which npm cannot reach any registry. */
  env: NodeJS.ProcessEnv;
  /** Removes the project. */
  remove(): void;
}

/** npm settings that forbid any network: a closed port as registry, offline, a private cache. */
function offlineEnvironment(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_registry: "http://127.0.0.1:9/",
    npm_config_offline: "true",
    npm_config_cache: join(dir, ".npm-cache"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}

/** `pnpm pack` of every workspace package (workspace: and catalog: ranges become real ones). */
async function packWorkspace(destination: string): Promise<Map<string, string>> {
  const tarballs = new Map<string, string>();
  for (const pkg of listPublishablePackages()) {
    const { stdout } = await run("pnpm", ["pack", "--pack-destination", destination], {
      cwd: pkg.dir,
    });
    const file = stdout.trim().split("\n").at(-1) as string;
    tarballs.set(pkg.manifest.name, join(destination, basename(file)));
  }
  return tarballs;
}

/**
 * Packs the workspace, packs the third-party packages it needs from node_modules (zod one patch
 * version away from ours, plus @types/node for type-checking), and installs all of it from local
 * tarballs with npm, offline.
 */
export async function createConsumerProject(): Promise<ConsumerProject> {
  const dir = mkdtempSync(join(tmpdir(), "patchbay-consumer-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const env = offlineEnvironment(dir);
    mkdirSync(join(dir, "tarballs"));
    mkdirSync(join(dir, "vendor"));
    const tarballs = await packWorkspace(join(dir, "tarballs"));
    const installed = listPublishablePackages().filter(
      (pkg) => !NOT_INSTALLED.has(pkg.manifest.name),
    );
    if (CONSUMER_ZOD_DIR === undefined) throw new Error("zod-prev is not installed");
    const thirdParty = collectThirdParty(
      [
        ...installed,
        {
          dir: packageDir,
          manifest: { name: "consumer", version: "0.0.0", dependencies: { "@types/node": "*" } },
        },
      ],
      new Map([["zod", CONSUMER_ZOD_DIR]]),
    );
    const dependencies: Record<string, string> = {};
    for (const pkg of installed) {
      dependencies[pkg.manifest.name] = `file:${tarballs.get(pkg.manifest.name)}`;
    }
    for (const pkg of thirdParty) {
      dependencies[pkg.name] = `file:${packInstalledPackage(pkg, join(dir, "vendor"))}`;
    }
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }, null, 2)}\n`,
    );
    cpSync(join(packageDir, "fixtures"), join(dir, "src"), { recursive: true });
    await run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir, env });
    return { dir, tarballs, env, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
