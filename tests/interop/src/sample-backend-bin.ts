import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type StartedServer, startServer } from "./start-server.js";

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

/**
 * The sample backend over Streamable HTTP on a port the OS picks. `--task-second-ms`: the tasks
 * scenarios' `slow_compute` "seconds" last 10 ms each.
 */
export function startHttpSampleBackend(): Promise<StartedServer> {
  return startServer(sampleBackendBin, [
    "--transport",
    "http",
    "--port",
    "0",
    "--task-second-ms",
    "10",
  ]);
}
