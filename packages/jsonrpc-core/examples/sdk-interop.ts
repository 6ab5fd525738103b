// The README's SDK example, compiled by `pnpm typecheck` (the import path is the only difference).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  createConnection,
  createMemoryTransportPair,
  fromSdkTransport,
  toSdkTransport,
} from "../src/index.js";

export async function sdkOverPatchbay(): Promise<string[]> {
  // A Patchbay transport under the SDK's Client and McpServer.
  const [clientSide, serverSide] = createMemoryTransportPair();
  const server = new McpServer({ name: "demo", version: "1.0.0" });
  server.registerTool("hello", { description: "Says hello" }, async () => ({
    content: [{ type: "text", text: "hello" }],
  }));
  await server.connect(toSdkTransport(serverSide));
  const client = new Client({ name: "demo-client", version: "1.0.0" });
  await client.connect(toSdkTransport(clientSide));
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name);
}

export async function patchbayOverSdk(): Promise<unknown> {
  // An SDK transport under a Patchbay Connection.
  const [sdkClientSide, sdkServerSide] = InMemoryTransport.createLinkedPair();
  await new McpServer({ name: "demo", version: "1.0.0" }).connect(sdkServerSide);
  const connection = createConnection(fromSdkTransport(sdkClientSide));
  await connection.start();
  const result = await connection.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "patchbay", version: "0.0.0" },
  });
  await connection.close();
  return result;
}
