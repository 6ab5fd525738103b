// The stdio gateway run from its library entry (`apps/gateway/dist/index.js`) instead of its bin:
// the bin is one bundle without source maps, and the probes that name the package and source file
// of each function (`path-coverage.mjs`, `profile.mjs`) need the packages' own dist files and maps.
// The code that runs per call is the same. Usage: node gateway-library.mjs <checkout> <config>
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, configPath] = process.argv.slice(2);
if (root === undefined || configPath === undefined) {
  process.stderr.write("usage: node gateway-library.mjs <checkout> <config>\n");
  process.exit(2);
}
const library = pathToFileURL(join(root, "apps", "gateway", "dist", "index.js")).href;
const { createLogger, startGateway } = await import(library);
const gateway = await startGateway({ configPath, logger: createLogger("error"), version: "bench" });
process.on("SIGTERM", () => void gateway.stop());
await gateway.stopped;
process.exit(0);
