import { createConnection } from "@patchbay/jsonrpc-core";
import {
  createStreamableHttpServer,
  StreamableHttpClientTransport,
  type StreamableHttpServer,
} from "../src/index.js";

/** Serves a tiny MCP-shaped endpoint on 127.0.0.1 (a free port) at /mcp. */
export async function startEchoServer(): Promise<StreamableHttpServer> {
  return createStreamableHttpServer({
    // Each session (one per `initialize`) gets its own transport: put a server on it.
    onSession: async (transport, session) => {
      const connection = createConnection(transport);
      connection.handle("initialize", (params) => ({
        protocolVersion: (params as { protocolVersion: string }).protocolVersion,
        capabilities: {},
        serverInfo: { name: "echo", version: "1.0.0" },
      }));
      connection.handle("echo", (params) => ({ params, sessionId: session.sessionId }));
      await connection.start();
    },
  });
}

/** Talks to the server with the fetch-based client transport and a Connection. */
export async function main(): Promise<unknown> {
  const server = await startEchoServer();
  const client = createConnection(new StreamableHttpClientTransport({ url: server.url }));
  await client.start();
  await client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "example", version: "1.0.0" },
  });
  await client.notify("notifications/initialized");
  const answer = await client.request("echo", { hello: "world" });
  await client.close(); // sends DELETE: the session ends on the server too
  await server.close();
  return answer;
}
