import { definePackageBuild } from "../../tsup.shared.js";

// One bundle of this program and the @patchbay packages: the conformance CLI starts it once per
// scenario, 39 at once, and a start spent most of its time resolving and compiling their modules
// (0.5 s of CPU, 0.15 s bundled). What those packages import by name (ajv, the JSON Schema
// validator @patchbay/client loads when it checks an elicitation answer) resolves from here, so
// this package depends on it.
export default definePackageBuild({
  entry: ["src/everything-client.ts"],
  tsconfig: "tsconfig.json",
  platform: "node",
  noExternal: [/^@patchbay\//],
  sourcemap: false,
});
