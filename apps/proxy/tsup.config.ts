import { definePackageBuild } from "../../tsup.shared.js";

export default definePackageBuild({
  entry: ["src/index.ts", "src/cli.ts"],
  dts: { entry: "src/index.ts" },
  platform: "node",
});
