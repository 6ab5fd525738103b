import { definePackageBuild } from "../../tsup.shared.js";

// `testing` is a second entry: starting a throwaway redis-server in tests.
export default definePackageBuild({ entry: ["src/index.ts", "src/testing/index.ts"] });
