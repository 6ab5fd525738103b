import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The config used when no `--config` is given: the sample backend over stdio, started from the
 * installed `@patchbay/sample-backend` package with this Node.
 */
export function demoConfig(): unknown {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("@patchbay/sample-backend/package.json");
  const bin = join(dirname(packageJson), "dist", "bin.js");
  return {
    mcpServers: {
      sample: { command: process.execPath, args: [bin, "--transport", "stdio"] },
    },
  };
}
