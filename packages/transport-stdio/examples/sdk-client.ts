// README example: the official SDK's Client over Patchbay's stdio transport.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { toSdkTransport } from "@patchbay/jsonrpc-core";
import { createStdioClientTransport } from "@patchbay/transport-stdio";

const client = new Client({ name: "example", version: "1.0.0" });
await client.connect(
  toSdkTransport(createStdioClientTransport({ command: "mcp-server-everything" })),
);
const { tools } = await client.listTools();
console.error(tools.map((tool) => tool.name));
await client.close();
