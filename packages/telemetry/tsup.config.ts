import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
  tsconfig: "tsconfig.build.json",
  // Keep `node:fs/promises` spelled as such: the only Node import, loaded lazily by the file sink.
  removeNodeProtocol: false,
});
