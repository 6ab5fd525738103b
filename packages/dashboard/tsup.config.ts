import { cpSync } from "node:fs";
import { definePackageBuild } from "../../tsup.shared.js";

// The page's HTML, CSS and JS ship inside dist, next to the code that serves them.
export default definePackageBuild({
  onSuccess: async () => {
    cpSync("src/assets", "dist/assets", { recursive: true });
  },
});
