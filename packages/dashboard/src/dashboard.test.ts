import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { createServer as createMcpServer } from "@patchbay/server";
import { createTelemetry } from "@patchbay/telemetry";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createCallFeed } from "./call-feed.js";
import { createDashboard, type Dashboard } from "./dashboard.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A dashboard without auth over one in-memory backend, on a loopback port. */
async function serve(options: { maxPages?: number } = {}): Promise<{ base: string }> {
  const backend = createMcpServer({ name: "notes", version: "1.0.0" });
  backend.registerTool("read", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
  const feed = createCallFeed();
  const router: Router = createRouter({
    config: parseGatewayConfig({ mcpServers: { notes: { command: "in-memory" } } }).config,
    telemetry: createTelemetry({ source: "test", sinks: [feed.sink] }),
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await backend.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  const dashboard: Dashboard = createDashboard({ router, feed, tokens: undefined, ...options });
  const server: Server = createServer((request, response) => {
    void dashboard.handleRequest(request, response);
  });
  server.on("upgrade", (request, socket, head) => dashboard.handleUpgrade(request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup = async () => {
    await dashboard.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await router.close();
  };
  return { base: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Opens the feed and resolves with its first message, or with the refusal's status. */
function firstMessage(
  base: string,
): Promise<{ socket?: WebSocket; status?: number; type?: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://${base}/dashboard/feed`);
    socket.once("message", (data) => resolve({ socket, type: JSON.parse(String(data)).type }));
    socket.on("unexpected-response", (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      response.resume();
      socket.terminate();
    });
    socket.on("error", () => {});
  });
}

describe("createDashboard", () => {
  it("serves at most maxPages feeds at once (503 past it)", async () => {
    const { base } = await serve({ maxPages: 1 });
    const first = await firstMessage(base);
    expect(first.type).toBe("snapshot");
    expect((await firstMessage(base)).status).toBe(503);
    first.socket?.close();
  });

  it("serves only its own assets, and 404 for anything else under /dashboard", async () => {
    const { base } = await serve();
    const style = await fetch(`http://${base}/dashboard/dashboard.css`);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await fetch(`http://${base}/dashboard/index.html`)).status).toBe(404);
    expect(
      (await fetch(`http://${base}/dashboard/api/snapshot`, { method: "DELETE" })).status,
    ).toBe(405);
  });
});
