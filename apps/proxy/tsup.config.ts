import { definePackageBuild } from "../../tsup.shared.js";

export default definePackageBuild({
  entry: ["src/index.ts", "src/cli.ts"],
  platform: "node",
});
