import { defineConfig, type Options } from "tsup";

/**
 * The build every workspace package shares: ESM from `src/index.ts`, compiled with the package's
 * `tsconfig.build.json`. Packages pass only what differs (extra entries, platform). Declarations
 * are not bundled here: each package's `build` script runs `tsc --emitDeclarationOnly` after tsup,
 * one `.d.ts` per source file, in about half the time tsup's bundled declarations took.
 */
export function definePackageBuild(overrides: Options = {}) {
  // `build:js` (what `pnpm start` runs) keeps the declarations an earlier full build wrote: it
  // empties dist/ of everything else. `build` empties it all and writes the declarations again.
  const clean: Options["clean"] = javascriptOnly() ? ["!**/*.d.ts", "!**/*.d.ts.map"] : true;
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm"],
    dts: false,
    sourcemap: true,
    clean,
    target: "es2022",
    tsconfig: "tsconfig.build.json",
    // Keep `node:` specifiers: without the prefix, bundlers and Deno/Workers cannot tell a Node
    // built-in from an npm package of the same name (tsup strips it by default).
    removeNodeProtocol: false,
    ...overrides,
  });
}

/** True when the package script running tsup is `build:js` (the JavaScript alone). */
export function javascriptOnly(): boolean {
  return process.env.npm_lifecycle_event === "build:js";
}
