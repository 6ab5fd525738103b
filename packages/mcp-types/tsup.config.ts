import { definePackageBuild } from "../../tsup.shared.js";

// One output file per source file (not one bundle), so that a bundler drops every module a
// consumer does not import (`sideEffects: false`), and each revision has its own subpath. The
// declarations come from tsc, one per file, instead of a single 1.6 MB bundled index.d.ts.
export default definePackageBuild({
  entry: ["src/**/*.ts", "!src/**/*.test.ts"],
  bundle: false,
});
