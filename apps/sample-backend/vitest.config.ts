import { fileURLToPath } from "node:url";
import { definePackageTestConfig } from "../../vitest.shared.js";

// The server contract suite lives in @patchbay/contract-tests, which does not depend on
// @patchbay/client yet; resolve it for the suite's source until it does.
export default definePackageTestConfig(import.meta.dirname, {
  resolve: {
    alias: {
      "@patchbay/client": fileURLToPath(
        new URL("../../packages/client/dist/index.js", import.meta.url),
      ),
    },
  },
});
