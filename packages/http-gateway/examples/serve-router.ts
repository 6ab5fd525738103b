import { createServer, type Server } from "node:http";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig } from "@patchbay/router";
import { createServer as createMcpServer } from "@patchbay/server";
import { createHttpGateway, hashToken } from "../src/index.js";

/**
 * Serves one in-memory backend through a router at /mcp, /mcp/readonly, /sse, /healthz, /readyz
 * and /metrics of a node:http server, for holders of two bearer tokens.
 */
export async function serveRouter(): Promise<Server> {
  const notes = createMcpServer({ name: "notes", version: "1.0.0" });
  notes.registerTool("read_note", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
  const { config } = parseGatewayConfig({
    mcpServers: { notes: { command: "in-memory" } },
    profiles: { readonly: { backends: ["notes"], tools: { allow: ["notes__read_*"] } } },
  });
  const router = createRouter({
    config,
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await notes.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  const gateway = createHttpGateway({
    router,
    tokens: [
      { name: "admin", token: "a-long-random-admin-token" },
      { name: "reader", sha256: hashToken("a-long-random-reader-token"), profiles: ["readonly"] },
    ],
    limits: { requestsPerMinute: 600, maxSessions: 100 },
  });
  const server = createServer((request, response) => void gateway(request, response));
  server.on("close", () => void gateway.close().then(() => router.close()));
  return server.listen(0, "127.0.0.1");
}
