import { readFileSync } from "node:fs";

/** This package's version (its package.json): what `--version` prints and `serverInfo` says. */
export const SAMPLE_BACKEND_VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;
