import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseGatewayConfig } from "@patchbay/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryValueStore } from "../test-support/memory-value-store.js";
import { type ConnectFlowStore, createMemoryConnectFlowStore } from "./connect-flow-store.js";
import { createPrincipalConnect, type PrincipalConnect } from "./principal-connect.js";

const { config } = parseGatewayConfig({
  mcpServers: {
    up: { url: "http://127.0.0.1:9/mcp", isolation: "per-principal", oauth: {} },
    other: { url: "http://127.0.0.1:9/mcp", isolation: "per-principal", oauth: {} },
  },
});

describe("createPrincipalConnect's links and callbacks", { timeout: 5_000 }, () => {
  let server: Server;
  let origin: string;
  const store = createMemoryValueStore();
  const connects: PrincipalConnect[] = [];

  function connectWith(linkTtlMs?: number, flows?: ConnectFlowStore): PrincipalConnect {
    const connect = createPrincipalConnect({
      origin: () => origin,
      backends: () => config.backends,
      store,
      ...(linkTtlMs === undefined ? {} : { linkTtlMs }),
      ...(flows === undefined ? {} : { flows }),
    });
    connects.push(connect);
    return connect;
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      const connect = connects.at(-1) as PrincipalConnect;
      void connect.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const connect of connects) connect.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const get = (url: string, init: RequestInit = {}) => fetch(url, { redirect: "manual", ...init });

  it("mints an unguessable link per call on its origin, for that backend", () => {
    const connect = connectWith();
    const first = new URL(connect.connectUrl("alice", "up"));
    const second = new URL(connect.connectUrl("alice", "up"));
    expect(first.origin).toBe(origin);
    expect(first.pathname).toBe("/connect/up");
    expect(first.searchParams.get("link")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.href).not.toBe(first.href);
    expect(connect.handles("/connect/up")).toBe(true);
    expect(connect.handles("/oauth/callback/up")).toBe(true);
    expect(connect.handles("/mcp")).toBe(false);
  });

  it("refuses a link opened for another backend, and then the link itself (single use)", async () => {
    const connect = connectWith();
    const link = new URL(connect.connectUrl("alice", "up"));
    const elsewhere = new URL(link);
    elsewhere.pathname = "/connect/other";
    expect((await get(elsewhere.href)).status).toBe(400);
    const again = await get(link.href);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This connect link is unknown, used or expired");
  });

  it("refuses an expired link, a callback with no sign-in underway and anything but GET", async () => {
    const connect = connectWith(0);
    const expired = await get(connect.connectUrl("alice", "up"));
    expect(expired.status).toBe(400);
    expect(expired.headers.get("cache-control")).toBe("no-store");
    const callback = await get(`${origin}/oauth/callback/up?code=stolen&state=guessed`);
    expect(callback.status).toBe(400);
    expect(await callback.text()).toContain("This sign-in is unknown, finished or expired");
    expect((await get(`${origin}/connect/up`, { method: "POST" })).status).toBe(405);
    expect(store.valuesFor("alice", "up")).toBeUndefined();
  });

  it("keeps tokens for the backend's server URL: another URL finds them forgotten", async () => {
    const connect = connectWith();
    const tokens = connect.tokenStore("up", "carol");
    await tokens.setTokens({ accessToken: "carol-access", refreshToken: "carol-refresh" });
    expect(await tokens.getTokens()).toEqual({
      accessToken: "carol-access",
      refreshToken: "carol-refresh",
    });
    expect(JSON.parse(store.valuesFor("carol", "up")?.oauth ?? "{}")).toEqual({
      serverUrl: "http://127.0.0.1:9/mcp",
    });
    // As if the entry's url had changed: the tokens are never sent to the new server.
    const moved = store.valuesFor("carol", "up") ?? {};
    store.replace("carol", "up", {
      ...moved,
      oauth: JSON.stringify({ serverUrl: "http://x/mcp" }),
    });
    expect(await tokens.getTokens()).toBeUndefined();
    expect(store.valuesFor("carol", "up")).toEqual({});
  });

  it("answers 502 with the reason when the upstream's authorization server cannot be found", async () => {
    const connect = connectWith();
    // Port 9 (discard) refuses: discovery fails before any browser is sent anywhere.
    const response = await get(connect.connectUrl("alice", "up"));
    expect(response.status).toBe(502);
    expect(await response.text()).toContain("Connecting to up failed: ");
    expect(store.valuesFor("alice", "up")).toBeUndefined();
  });

  it("keeps links in the flow store it is given: a link minted by one program opens in another", async () => {
    const flows = createMemoryConnectFlowStore();
    const minting = connectWith(undefined, flows);
    const link = minting.connectUrl("alice", "up");
    // The last program made serves the requests: it finds the other's link (and spends it).
    connectWith(undefined, flows);
    const opened = await get(link);
    expect(opened.status).toBe(502);
    expect(await opened.text()).toContain("Connecting to up failed: ");
    expect((await get(link)).status).toBe(400);
  });
});
