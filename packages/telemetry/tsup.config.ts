import { definePackageBuild } from "../../tsup.shared.js";

// Keep `node:fs/promises` spelled as such: the only Node import, loaded lazily by the file sink.
// `testing` is a second entry: an in-process OTLP receiver for tests of the exporter.
export default definePackageBuild({
  removeNodeProtocol: false,
  entry: ["src/index.ts", "src/testing/index.ts"],
});
