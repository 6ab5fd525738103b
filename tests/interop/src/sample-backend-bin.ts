import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The built `patchbay-sample-backend` entry point (turbo builds it before these tests). */
export const sampleBackendBin = join(
  dirname(require.resolve("@patchbay/sample-backend/package.json")),
  "dist",
  "bin.js",
);

/** The built `patchbay-proxy` entry point. */
export const proxyBin = join(
  dirname(require.resolve("@patchbay/proxy/package.json")),
  "dist",
  "cli.js",
);
