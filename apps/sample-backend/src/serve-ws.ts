import type { Server } from "@patchbay/server";
import { listenLoopback } from "@patchbay/transport-http";
import { attachWebSocketServer } from "@patchbay/transport-ws";
import type { RunningListener } from "./serve-http.js";

/** Serves MCP over WebSocket at `ws://host:port/mcp` (subprotocol `mcp`); one session per socket. */
export async function serveWs(
  server: Server,
  host: string,
  port: number,
): Promise<RunningListener> {
  const bound = await listenLoopback(
    (_request, response) => {
      response.writeHead(426, { "Content-Type": "text/plain", Upgrade: "websocket" });
      response.end("Upgrade Required: connect with a WebSocket client to /mcp\n");
    },
    host,
    port,
  );
  const sockets = attachWebSocketServer(bound.server, {
    path: "/mcp",
    onConnection: async (transport) => {
      await server.connect(transport);
    },
  });
  return {
    url: new URL(`${bound.origin.replace("http:", "ws:")}/mcp`),
    async close() {
      await sockets.close();
      await bound.close();
      await server.close();
    },
  };
}
