// The README example, compiled by `pnpm typecheck` (the import path of the factory is the only
// difference). Not run by the tests: it spawns npx and dials a remote server.
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { createBackendTransportFactory } from "../src/index.js";

export async function main(): Promise<Router> {
  const { config } = parseGatewayConfig({
    mcpServers: {
      files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
      remote: { url: "wss://mcp.example.com/mcp", headers: { Authorization: "Bearer ..." } },
    },
  });
  const router = createRouter({
    config,
    connect: createBackendTransportFactory({
      onStderr: (backend, line) => console.error(`[${backend}] ${line}`),
    }),
  });
  await router.start();
  return router;
}
