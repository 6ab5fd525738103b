import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** The conformance release the suite is pinned to (legacy era up to 2025-11-25). */
export const CONFORMANCE_VERSION = "0.1.16";

/** How to run the official conformance CLI here: a Node >= 22 binary and the CLI's entry script. */
export interface ConformanceCli {
  node: string;
  script: string;
}

/**
 * Installs (once, into a cache folder outside the repository) the conformance CLI and, when this
 * machine's Node is older than 22, a Node 22 binary from the npm registry (the CLI dies at load on
 * Node 20). Set PATCHBAY_CACHE_DIR to move the cache.
 */
export async function ensureConformanceCli(): Promise<ConformanceCli> {
  const cacheRoot = process.env.PATCHBAY_CACHE_DIR ?? join(homedir(), ".cache", "patchbay");
  const prefix = join(cacheRoot, `conformance-${CONFORMANCE_VERSION}`);
  const modules = join(prefix, "node_modules");
  const script = join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js");
  const major = Number(process.versions.node.split(".")[0]);
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const node = major >= 22 ? process.execPath : join(modules, nodePackage, "bin", "node");
  if (!existsSync(script) || !existsSync(node)) {
    const specs = [`@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`];
    if (major < 22) specs.push(`${nodePackage}@22`);
    process.stderr.write(`installing ${specs.join(" and ")} into ${prefix}\n`);
    await execFileAsync(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, ...specs],
      { timeout: 240_000 },
    );
  }
  return { node, script };
}
