import { createConnection } from "@patchbay/jsonrpc-core";
import {
  createWebStreamableHttpHandler,
  type WebStreamableHttpHandler,
  type WebStreamableHttpHandlerOptions,
} from "../src/index.js";

/**
 * A tiny MCP-shaped endpoint on web-standard Request/Response, shared by the runtime examples
 * beside this file: `initialize` and an `echo` method on every session.
 */
export function createEchoEndpoint(
  options: Partial<WebStreamableHttpHandlerOptions> = {},
): WebStreamableHttpHandler {
  return createWebStreamableHttpHandler({
    ...options,
    onSession: async (transport) => {
      const connection = createConnection(transport);
      connection.handle("initialize", (params) => ({
        protocolVersion: (params as { protocolVersion: string }).protocolVersion,
        capabilities: {},
        serverInfo: { name: "echo", version: "1.0.0" },
      }));
      connection.handle("echo", (params) => params);
      await connection.start();
    },
  });
}
