import { definePackageBuild } from "../../tsup.shared.js";

// `config-file` and `pins-file` are more entries: reading and watching files needs `node:fs`, which
// the router itself never imports.
export default definePackageBuild({
  entry: ["src/index.ts", "src/config-file/index.ts", "src/pins-file/index.ts"],
});
