import { defineConfig, type Options } from "tsup";

/**
 * The build every workspace package shares: ESM from `src/index.ts` with declarations, compiled
 * with the package's `tsconfig.build.json`. Packages pass only what differs (extra entries, platform).
 */
export function definePackageBuild(overrides: Options = {}) {
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "es2022",
    tsconfig: "tsconfig.build.json",
    // Keep `node:` specifiers: without the prefix, bundlers and Deno/Workers cannot tell a Node
    // built-in from an npm package of the same name (tsup strips it by default).
    removeNodeProtocol: false,
    ...overrides,
  });
}
