import { definePackageBuild } from "../../tsup.shared.js";

export default definePackageBuild({
  entry: ["src/everything-client.ts"],
  tsconfig: "tsconfig.json",
  platform: "node",
});
