import { rmSync } from "node:fs";
import { definePackageBuild, javascriptOnly, zodEnglishOnly } from "../../tsup.shared.js";

// The library entry imports its dependencies. The bin bundles the @patchbay packages and zod: a
// client starts one gateway per connection (and the tests start hundreds), and a start spent most
// of its time opening and compiling those modules (README, "Start-up"). The packages' own imports
// of ws, eventsource-parser, oauth4webapi, yaml, ajv and the OpenTelemetry exporters stay external,
// so this package depends on them directly.
// tsup runs the two builds at once, so neither may empty dist/: this file does, once, as tsup loads
// it (tsup runs from the package folder); `build:js` leaves it as it is (declarations included).
if (!javascriptOnly()) rmSync("dist", { recursive: true, force: true });

export default [
  definePackageBuild({ entry: ["src/index.ts"], platform: "node", clean: false }),
  definePackageBuild({
    entry: ["src/cli.ts"],
    platform: "node",
    clean: false,
    noExternal: [/^@patchbay\//, "zod"],
    // zod's messages in English only, as the program writes them (tsup.shared.ts).
    esbuildPlugins: [zodEnglishOnly],
    // A program's bundle: its maps would be megabytes of zod and the packages' sources.
    sourcemap: false,
  }),
];
