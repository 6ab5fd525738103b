import { definePackageBuild } from "../../tsup.shared.js";

// `testing` is a second entry: the manual clock every package's tests share.
export default definePackageBuild({ entry: ["src/index.ts", "src/testing/index.ts"] });
