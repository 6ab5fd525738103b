import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";

const root = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(root, ".test-results");

/**
 * The vitest project settings every workspace package shares: the default console reporter plus a
 * JSON report per package under `.test-results/`, which `scripts/run-tests.mjs` sums into one line.
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
