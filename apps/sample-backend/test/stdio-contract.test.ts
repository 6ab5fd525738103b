import { fileURLToPath } from "node:url";
import { describeServerContract } from "@patchbay/contract-tests/server";
import { createStdioClientTransport } from "@patchbay/transport-stdio";

// The built bin (turbo builds the package before its tests): one child process per connection.
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

describeServerContract({
  name: "sample backend over stdio (patchbay-sample-backend --transport stdio)",
  async connect() {
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [bin, "--transport", "stdio"],
      stderr: "ignore",
    });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: {
    concurrentSessions: { unsupported: "each stdio connection is its own server process" },
    modernEra: true,
  },
});
