import { dirname, join } from "node:path";
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

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

/**
 * For a program's bundle (the apps' bins): zod's `locales` namespace (`z.locales`,
 * `z.core.locales`) holds English only. zod writes its messages in English unless a program
 * chooses another locale (`z.config(z.locales.de())`), which none of ours does; the other locales
 * were half of zod's code in a bin (367 of 767 KB), and compiling them cost each start about 5 ms
 * of CPU. A library keeps them: its users may choose.
 */
export const zodEnglishOnly: EsbuildPlugin = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? {
            path: join(args.resolveDir, "..", "locales", "index.js"),
            namespace: "zod-english-only",
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
    }));
  },
};
