import { defineConfig, type Options } from "tsup";

/**
 * The build every workspace package shares: ESM from `src/index.ts`, compiled with the package's
 * `tsconfig.build.json`. Packages pass only what differs (extra entries, platform). Declarations
 * are not bundled here: each package's `build` script runs `tsc --emitDeclarationOnly` after tsup,
 * one `.d.ts` per source file, in about half the time tsup's bundled declarations took.
 */
export function definePackageBuild(overrides: Options = {}) {
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm"],
    dts: false,
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
