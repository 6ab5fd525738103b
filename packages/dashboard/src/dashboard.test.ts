import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createConnection,
  createMemoryTransportPair,
  type FrameInfo,
  type Transport,
} from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { createServer as createMcpServer } from "@patchbay/server";
import { createTelemetry } from "@patchbay/telemetry";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { type CallFeed, createCallFeed } from "./call-feed.js";
import { createDashboard, type Dashboard } from "./dashboard.js";
import type { DashboardSnapshot } from "./snapshot.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A dashboard without auth over one in-memory backend, on a loopback port. */
async function serve(options: { maxPages?: number; now?: () => number; feed?: CallFeed } = {}) {
  const backend = createMcpServer({ name: "notes", version: "1.0.0" });
  backend.registerTool("read", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
  const feed = options.feed ?? createCallFeed();
  const telemetry = createTelemetry({ source: "test", sinks: [feed.sink] });
  const router: Router = createRouter({
    config: parseGatewayConfig({ mcpServers: { notes: { command: "in-memory" } } }).config,
    telemetry,
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
  return { base: `127.0.0.1:${(server.address() as AddressInfo).port}`, router, telemetry };
}

/** A client of `router` whose frames carry `caller` as an HTTP front's auth info, initialized. */
async function connectAs(router: Router, caller: string) {
  const [clientSide, routerSide] = createMemoryTransportPair();
  const served: Transport = {
    start: () => routerSide.start(),
    send: (frame, options) => routerSide.send(frame, options),
    close: () => routerSide.close(),
    onError: (listener) => routerSide.onError(listener),
    onClose: (listener) => routerSide.onClose(listener),
    onFrame: (listener) =>
      routerSide.onFrame((frame, info: FrameInfo) =>
        listener(frame, { ...info, extra: { authInfo: { name: caller } } }),
      ),
  };
  await router.serve(served);
  const client = createConnection(clientSide);
  await client.start();
  await client.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "agent", version: "1.0" },
  });
  return client;
}

/** The messages the feed greets a page with: the snapshot, then the latest calls. */
function greeting(base: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${base}/dashboard/feed`);
    const messages: Record<string, unknown>[] = [];
    socket.on("message", (data) => {
      messages.push(JSON.parse(String(data)));
      if (messages.length < 2) return;
      socket.close();
      resolve(messages);
    });
    socket.on("error", reject);
  });
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
  it("builds no call while no page is open, yet marks its session active; an open page gets them", async () => {
    const feed = createCallFeed();
    let reads = 0;
    const watch = feed.watch;
    feed.watch = (listener) =>
      watch((batch) =>
        listener({
          summaries: batch.summaries,
          calls: () => {
            reads += 1;
            return batch.calls();
          },
        }),
      );
    let now = 1_000;
    const { base, router, telemetry } = await serve({ feed, now: () => now });
    const client = await connectAs(router, "alice");
    now = 5_000;
    await client.request("tools/call", { name: "notes__read", arguments: {} });
    await telemetry.flush();
    expect(reads).toBe(0);
    const snapshot = (await (
      await fetch(`http://${base}/dashboard/api/snapshot`)
    ).json()) as DashboardSnapshot;
    expect(snapshot.sessions.map((session) => session.idleMs)).toEqual([0]);
    // A page opens: greeted with the call, then sent the next one as it ends.
    const page = new WebSocket(`ws://${base}/dashboard/feed`);
    const messages: { type: string; calls?: { tool?: string; client?: string }[] }[] = [];
    const received = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (messages.length >= count ? resolve() : setTimeout(check, 5));
        check();
      });
    page.on("message", (data) => messages.push(JSON.parse(String(data))));
    await received(2);
    expect(messages[1]?.calls?.filter((call) => call.tool !== undefined)).toMatchObject([
      { tool: "notes__read", client: "alice" },
    ]);
    await client.request("tools/call", { name: "notes__read", arguments: {} });
    await telemetry.flush();
    await received(3);
    expect(reads).toBe(1);
    expect(messages[2]).toMatchObject({ type: "calls", calls: [{ tool: "notes__read" }] });
    page.close();
  });

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

  it("names each call's caller and the backend that took it; an unknown tool has none, the router's own is built-in", async () => {
    const { base, router, telemetry } = await serve();
    const caller = "https://id.example#<b>alice</b>";
    const client = await connectAs(router, caller);
    await client.request("tools/call", { name: "notes__read", arguments: {} });
    await client.request("tools/call", { name: "nope", arguments: {} }).catch(() => undefined);
    await client.request("tools/call", { name: "gateway_status", arguments: {} });
    await telemetry.flush();
    const [, history] = await greeting(base);
    const calls = (history as { calls: Record<string, unknown>[] }).calls.filter(
      (call) => call.method === "tools/call",
    );
    expect(calls.map((call) => [call.tool, call.client, call.backend, call.builtIn])).toEqual([
      ["notes__read", caller, "notes", undefined],
      ["nope", caller, undefined, undefined],
      ["gateway_status", caller, undefined, true],
    ]);
    for (const call of calls) expect(call).not.toHaveProperty("session");
    await client.close();
  });

  it("names the caller of a modern (2026-07-28) request, which has no client session", async () => {
    const { base, router, telemetry } = await serve();
    const modern = router.modern();
    const answer = await modern.handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "notes__read",
          arguments: {},
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      { signal: new AbortController().signal, notify: () => {}, caller: "modern-team" },
    );
    expect(answer).toHaveProperty("result");
    await telemetry.flush();
    const [snapshot, history] = await greeting(base);
    const calls = (history as { calls: Record<string, unknown>[] }).calls.filter(
      (call) => call.method === "tools/call",
    );
    expect(calls.map((call) => [call.tool, call.client, call.backend])).toEqual([
      ["notes__read", "modern-team", "notes"],
    ]);
    // The front's own session is not a client's: not listed.
    expect((snapshot as { snapshot: DashboardSnapshot }).snapshot.sessions).toEqual([]);
  });

  it("tells each session's idle time: since its last request ended", async () => {
    let clock = 1_000_000;
    const { base, router, telemetry } = await serve({ now: () => clock });
    const client = await connectAs(router, "team-token");
    clock += 10_000;
    await client.request("tools/call", { name: "notes__read", arguments: {} });
    await telemetry.flush();
    clock += 50_000;
    const snapshot = (await (
      await fetch(`http://${base}/dashboard/api/snapshot`)
    ).json()) as DashboardSnapshot;
    expect(snapshot.sessions).toMatchObject([
      { client: "agent", token: "team-token", ageMs: 60_000, idleMs: 50_000 },
    ]);
    await client.close();
  });

  it("offers no Log out without auth (the snapshot says so too)", async () => {
    const { base } = await serve();
    const page = await (await fetch(`http://${base}/dashboard`)).text();
    expect(page).toContain('id="calls"');
    expect(page).not.toContain("Log out");
    const snapshot = (await (
      await fetch(`http://${base}/dashboard/api/snapshot`)
    ).json()) as DashboardSnapshot;
    expect(snapshot.auth).toBe(false);
  });
});
