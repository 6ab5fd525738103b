// README example: spawn an MCP server and talk to it through a jsonrpc-core Connection.
import { ConnectionClosedError, createConnection } from "@patchbay/jsonrpc-core";
import { createStdioClientTransport, type StdioExitDetails } from "@patchbay/transport-stdio";

const transport = createStdioClientTransport({
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-everything"],
  env: { LOG_LEVEL: "debug" },
  name: "everything",
  gracePeriodMs: 2_000,
});
transport.onClose((event) => {
  const { exitCode, signal } = event.details as StdioExitDetails;
  console.error(`everything stopped (${event.initiator}): code ${exitCode}, signal ${signal}`);
});

const connection = createConnection(transport);
await connection.start();
try {
  const result = await connection.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "example", version: "1.0.0" },
  });
  console.error(result);
  await connection.notify("notifications/initialized");
} catch (error) {
  if (ConnectionClosedError.isInstance(error)) console.error("the server went away:", error.cause);
  else throw error;
}
await connection.close();
