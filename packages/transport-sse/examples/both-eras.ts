import { createConnection, type Transport } from "@patchbay/jsonrpc-core";
import { createStreamableHttpHandler, listenLoopback } from "@patchbay/transport-http";
import { createSseHandler, FallbackClientTransport } from "../src/index.js";

/** One MCP-shaped server: answers `initialize` and `echo` on any transport. */
async function serve(transport: Transport): Promise<void> {
  const connection = createConnection(transport);
  connection.handle("initialize", (params) => ({
    protocolVersion: (params as { protocolVersion: string }).protocolVersion,
    capabilities: {},
    serverInfo: { name: "both-eras", version: "1.0.0" },
  }));
  connection.handle("echo", (params) => params);
  await connection.start();
}

/**
 * Hosts the new endpoint (/mcp) and the old one (GET /sse + POST /messages) side by side, as the
 * specification's backwards-compatibility section suggests, on 127.0.0.1 and a free port.
 */
export async function startBothEras() {
  const streamable = createStreamableHttpHandler({ onSession: serve });
  const legacy = createSseHandler({ endpoint: "/messages", onSession: serve });
  const bound = await listenLoopback((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    if (pathname === "/mcp") void streamable(request, response);
    else if (pathname === "/sse" || pathname === "/messages") void legacy(request, response);
    else response.writeHead(404).end();
  });
  return {
    origin: bound.origin,
    async close() {
      await Promise.all([streamable.close(), legacy.close()]);
      await bound.close();
    },
  };
}

/** Connects to a URL whose era is unknown: Streamable HTTP first, legacy SSE on a 4xx. */
export async function connect(url: string) {
  const transport = new FallbackClientTransport({ url });
  const connection = createConnection(transport);
  await connection.start();
  await connection.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "example", version: "1.0.0" },
  });
  await connection.notify("notifications/initialized");
  const echoed = await connection.request("echo", { via: url });
  const kind = transport.kind;
  await connection.close();
  return { kind, echoed };
}
