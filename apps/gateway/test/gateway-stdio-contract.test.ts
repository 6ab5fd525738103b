import { describeServerContract } from "@patchbay/contract-tests/server";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { backends, gatewayCli, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

// The real gateway process over stdio, in front of the sample backend over stdio, names unprefixed
// so the suite finds its fixtures. Every case starts its own gateway (and so its own backend).
const configPath = writeConfig(temporaryDirectory(), {
  pageSize: 4,
  mcpServers: {
    sample: { command: process.execPath, args: [backends.sample], namespace: "" },
  },
});

describeServerContract({
  name: "patchbay-gateway over stdio in front of the sample backend",
  async connect() {
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [gatewayCli, "--config", configPath, "--log-level", "warn"],
      name: "patchbay-gateway",
      stderr: "ignore",
    });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: {
    concurrentSessions: {
      unsupported:
        "a stdio gateway serves one client; each connection here is its own gateway and backend",
    },
  },
});
