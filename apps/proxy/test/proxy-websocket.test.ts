import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { DashboardSnapshot } from "@patchbay/dashboard";
import { type Connection, createConnection } from "@patchbay/jsonrpc-core";
import { createNodeWebSocketClientTransport } from "@patchbay/transport-ws";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const ADMIN = "admin-token-0123456789abcdef";
const TEAM = "team-token-0123456789abcdef";

let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry(), other: sampleEntry() },
    profiles: { team: { servers: ["sample"], tools: { deny: ["sample__toggle_*"] } } },
    auth: {
      tokens: [
        { name: "admin", token: ADMIN },
        { name: "team", token: TEAM, profiles: ["team"] },
      ],
    },
  });
});
afterAll(() => proxy.stop());
afterEach(() => {
  vi.unstubAllGlobals();
});

const wsUrl = (path: string) => proxy.at(path).href.replace(/^http:/, "ws:");

/**
 * The SDK's client uses the global WebSocket, which Node 20 lacks; `ws` stands in, and (as a Node
 * program would) a subclass puts the bearer token on the handshake.
 */
async function connectSdk(path: string, token: string): Promise<Client> {
  class WebSocketWithToken extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${token}` } });
    }
  }
  vi.stubGlobal("WebSocket", WebSocketWithToken);
  const client = new Client({ name: "sdk-over-ws", version: "1.0.0" });
  await client.connect(new WebSocketClientTransport(new URL(wsUrl(path))));
  return client;
}

/** Our Node client, initialized by hand. */
async function connectPatchbay(path: string, token: string): Promise<Connection> {
  const transport = createNodeWebSocketClientTransport({
    url: wsUrl(path),
    headers: { authorization: `Bearer ${token}` },
  });
  const connection = createConnection(transport);
  await connection.start();
  await connection.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "patchbay-over-ws", version: "1.0.0" },
  });
  await connection.notify("notifications/initialized");
  return connection;
}

/** The HTTP status an upgrade gets, and its WWW-Authenticate. */
function upgradeStatus(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; challenge: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(path), "mcp", { headers });
    socket.on("unexpected-response", (_request, response) => {
      resolve({
        status: response.statusCode ?? 0,
        challenge: response.headers["www-authenticate"],
      });
      response.resume();
      socket.terminate();
    });
    socket.on("open", () => {
      socket.close();
      reject(new Error(`the upgrade to ${path} was accepted`));
    });
    socket.on("error", () => {});
  });
}

describe("MCP over WebSocket at /ws and /ws/<profile>", () => {
  it("serves the official SDK 1.x WebSocketClientTransport: lists and calls tools of every backend", async () => {
    const client = await connectSdk("/ws", ADMIN);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["sample__echo", "other__echo"]));
    const result = await client.callTool({ name: "other__echo", arguments: { message: "hi" } });
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    await client.close();
  });

  it("serves our Node client on a profile: only the profile's tools, and others cannot be called", async () => {
    const connection = await connectPatchbay("/ws/team", TEAM);
    const listed = (await connection.request("tools/list", {})) as { tools: { name: string }[] };
    const names = listed.tools.map((tool) => tool.name);
    expect(names).toContain("sample__echo");
    expect(names.some((name) => name.startsWith("other__"))).toBe(false);
    expect(names.some((name) => name.startsWith("sample__toggle_"))).toBe(false);
    const called = await connection.request("tools/call", {
      name: "sample__echo",
      arguments: { message: "team" },
    });
    expect(called).toMatchObject({ content: [{ type: "text", text: "team" }] });
    await expect(
      connection.request("tools/call", { name: "other__echo", arguments: { message: "x" } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("other__echo") });
    await expect(
      connection.request("tools/call", { name: "sample__toggle_extra_tool", arguments: {} }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("sample__toggle_extra_tool"),
    });
    // The dashboard lists the WebSocket session with its profile and token name.
    const snapshot = (await (
      await fetch(proxy.at("/dashboard/api/snapshot"), {
        headers: { authorization: `Bearer ${ADMIN}` },
      })
    ).json()) as DashboardSnapshot;
    expect(snapshot.sessions).toContainEqual(
      expect.objectContaining({ client: "patchbay-over-ws", profile: "team", token: "team" }),
    );
    await connection.close();
  });

  it("refuses upgrades as the HTTP endpoints refuse requests: 401, 403 for another profile, 404", async () => {
    expect(await upgradeStatus("/ws", {})).toEqual({
      status: 401,
      challenge: 'Bearer realm="patchbay"',
    });
    expect((await upgradeStatus("/ws", { authorization: `Bearer ${ADMIN}x` })).status).toBe(401);
    const team = await upgradeStatus("/ws", { authorization: `Bearer ${TEAM}` });
    expect(team.status).toBe(403);
    expect(team.challenge).toContain('error="insufficient_scope"');
    expect((await upgradeStatus("/ws/nope", { authorization: `Bearer ${ADMIN}` })).status).toBe(
      404,
    );
    expect((await upgradeStatus("/elsewhere", { authorization: `Bearer ${ADMIN}` })).status).toBe(
      404,
    );
  });

  it("refuses a browser page from another origin with 403", async () => {
    const answer = await upgradeStatus("/ws", {
      authorization: `Bearer ${ADMIN}`,
      origin: "http://evil.example",
    });
    expect(answer.status).toBe(403);
  });

  it("logs each call with the token's name, never the token", async () => {
    const connection = await connectPatchbay("/ws", ADMIN);
    await connection.request("tools/call", { name: "sample__echo", arguments: { message: "log" } });
    await connection.close();
    const line = proxy.logs.find(
      (entry) => entry.includes('"path":"/ws"') && entry.includes('"tool":"sample__echo"'),
    );
    expect(line).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({
      kind: "rpc",
      method: "tools/call",
      backend: "sample",
      status: "ok",
      client: "admin",
    });
    expect(proxy.logs.join("")).not.toContain(ADMIN);
  });
});
