import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";

const root = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(root, ".test-results");

/**
 * The vitest project settings every workspace package shares: the default console reporter plus a
 * JSON report per package under `.test-results/`, which `scripts/run-tests.mjs` sums into one line.
 * This file is also each package's `globalSetup` (see `setup` below).
 */
export function definePackageTestConfig(packageDir: string, overrides: ViteUserConfig = {}) {
  mkdirSync(resultsDir, { recursive: true });
  const name = basename(packageDir);
  const group = basename(dirname(packageDir));
  return mergeConfig(
    defineConfig({
      test: {
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        reporters: ["default", ["json", { outputFile: join(resultsDir, `${group}-${name}.json`) }]],
        globalSetup: [fileURLToPath(import.meta.url)],
        testTimeout: 20_000,
        hookTimeout: 20_000,
        restoreMocks: true,
        unstubEnvs: true,
        unstubGlobals: true,
      },
    }),
    overrides,
  );
}

const TEMPORARY_VARIABLES = ["TMPDIR", "TMP", "TEMP"] as const;

/**
 * vitest `globalSetup`: points the temp dir of this run (its test workers and every process they
 * start inherit it) at a fresh private folder, and fails the run when anything is left in it at the
 * end, naming what, so tests keep cleaning up after themselves. A private folder keeps runs of
 * other packages or checkouts on the same machine out of the count.
 */
export function setup(): () => void {
  const runDirectory = mkdtempSync(join(tmpdir(), "patchbay-test-run-"));
  const previous = TEMPORARY_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const name of TEMPORARY_VARIABLES) process.env[name] = runDirectory;
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const leftovers = readdirSync(runDirectory);
    rmSync(runDirectory, { recursive: true, force: true });
    if (leftovers.length > 0) {
      // vitest prints an error thrown from teardown ("error during close") but still exits 0.
      process.exitCode = 1;
      throw new Error(
        `Tests left ${leftovers.length} entr${leftovers.length === 1 ? "y" : "ies"} in the temp dir ` +
          `(remove them in afterEach/afterAll): ${leftovers.slice(0, 20).join(", ")}`,
      );
    }
  };
}
