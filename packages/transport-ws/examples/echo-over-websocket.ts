import { createConnection } from "@patchbay/jsonrpc-core";
import { listenLoopback } from "@patchbay/transport-http";
import { attachWebSocketServer, createNodeWebSocketClientTransport } from "@patchbay/transport-ws";

/** Serves `echo` over WebSocket at ws://127.0.0.1:<port>/mcp; only `Bearer secret` gets in. */
export async function startEchoServer() {
  const http = await listenLoopback((_request, response) => {
    response.writeHead(426).end();
  });
  const sockets = attachWebSocketServer(http.server, {
    path: "/mcp",
    authenticate: (request) =>
      request.headers.authorization === "Bearer secret"
        ? { ok: true, info: { user: "alice" } }
        : { ok: false, wwwAuthenticate: 'Bearer realm="mcp"' },
    onConnection: async (transport) => {
      const connection = createConnection(transport);
      connection.handle("echo", (params) => params);
      await transport.start();
    },
  });
  return {
    url: `${http.origin.replace("http:", "ws:")}/mcp`,
    async close() {
      await sockets.close();
      await http.close();
    },
  };
}

/** Connects with a token, calls `echo` once and hangs up. */
export async function callEcho(url: string, text: string): Promise<unknown> {
  const transport = createNodeWebSocketClientTransport({
    url,
    headers: { Authorization: "Bearer secret" },
  });
  const connection = createConnection(transport);
  await transport.start();
  try {
    return await connection.request("echo", { text });
  } finally {
    await connection.close();
  }
}
