import { createServer, type Server } from "node:http";
import { createHttpGateway } from "@patchbay/http-gateway";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig } from "@patchbay/router";
import { createServer as createMcpServer } from "@patchbay/server";
import { createTelemetry } from "@patchbay/telemetry";
import { createCallFeed, createDashboard } from "../src/index.js";

/** Serves a router at /mcp and its dashboard at /dashboard on one node:http server. */
export async function serveWithDashboard(): Promise<Server> {
  const notes = createMcpServer({ name: "notes", version: "1.0.0" });
  notes.registerTool("read_note", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
  const tokens = [{ name: "admin", token: "a-long-random-admin-token" }];
  // The feed is a telemetry sink: every call the router records reaches the dashboard's pages.
  const feed = createCallFeed();
  const router = createRouter({
    config: parseGatewayConfig({ mcpServers: { notes: { command: "in-memory" } } }).config,
    telemetry: createTelemetry({ source: "proxy", sinks: [feed.sink] }),
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await notes.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  const dashboard = createDashboard({ router, feed, tokens });
  // The dashboard lists the router's sessions itself: the gateway serves the router as it is.
  const gateway = createHttpGateway({ router, tokens });
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    void (dashboard.handles(path)
      ? dashboard.handleRequest(request, response)
      : gateway(request, response));
  });
  server.on("upgrade", (request, socket, head) => dashboard.handleUpgrade(request, socket, head));
  server.on("close", () => {
    void Promise.all([dashboard.close(), gateway.close()]).then(() => router.close());
  });
  return server.listen(0, "127.0.0.1");
}
