import { definePackageBuild } from "../../tsup.shared.js";

// `config-file` is a second entry: reading and watching the config file needs `node:fs`, which the
// router itself never imports.
export default definePackageBuild({ entry: ["src/index.ts", "src/config-file/index.ts"] });
