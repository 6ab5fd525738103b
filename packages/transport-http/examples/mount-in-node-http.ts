import { createServer, type Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { toSdkTransport } from "@patchbay/jsonrpc-core";
import { createStreamableHttpHandler } from "../src/index.js";

/**
 * Mounts the handler at /mcp of an existing node:http server (express, fastify and hono's node
 * adapter hand the same req/res over), serving an official-SDK McpServer per session.
 */
export function createAppServer(): Server {
  const mcp = createStreamableHttpHandler({
    responseMode: "json",
    authenticate: (request) =>
      request.headers.authorization === "Bearer let-me-in"
        ? { ok: true, info: { user: "example" } }
        : { ok: false, wwwAuthenticate: 'Bearer realm="mcp"' },
    onSession: async (transport) => {
      const server = new McpServer({ name: "app", version: "1.0.0" });
      await server.connect(toSdkTransport(transport));
    },
  });
  const app = createServer((request, response) => {
    if (request.url?.startsWith("/mcp")) {
      void mcp(request, response);
      return;
    }
    response.writeHead(200, { "content-type": "text/plain" }).end("ok");
  });
  app.on("close", () => void mcp.close());
  return app;
}
