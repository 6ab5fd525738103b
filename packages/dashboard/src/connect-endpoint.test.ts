import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCallFeed } from "./call-feed.js";
import { createDashboard, type Dashboard } from "./dashboard.js";

const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789";
const tokens = [
  { name: "alice", token: ALICE },
  { name: "bob", token: BOB },
];

/** The links minted, as `principal/backend`. */
const minted: string[] = [];
let router: Router;
let dashboard: Dashboard;
let server: Server;
let origin: string;
let aliceCookie: string;

async function login(token: string): Promise<string> {
  const response = await fetch(`${origin}/dashboard/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ token }).toString(),
    redirect: "manual",
  });
  expect(response.status).toBe(303);
  return (response.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

beforeAll(async () => {
  router = createRouter({
    config: parseGatewayConfig({
      mcpServers: {
        // Each user enters a value; the operator sets the other's; the third is shared.
        mine: {
          command: "x",
          isolation: "per-principal",
          credentials: { env: ["TOKEN"], setByUser: true },
        },
        ops: { command: "x", isolation: "per-principal", credentials: { env: ["TOKEN"] } },
        shared: { command: "x", start: "lazy" },
      },
    }).config,
    credentials: { valuesFor: () => undefined },
    connect: () => Promise.reject(new Error("never started here")),
  });
  await router.start();
  dashboard = createDashboard({
    router,
    feed: createCallFeed(),
    tokens,
    snapshotIntervalMs: 0,
    connectLink: (principal, backend) => {
      minted.push(`${principal}/${backend}`);
      return backend === "mine"
        ? `https://proxy.example/connect/mine?link=${minted.length}`
        : undefined;
    },
  });
  server = createServer((request, response) => void dashboard.handleRequest(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  aliceCookie = await login(ALICE);
});

afterAll(async () => {
  await dashboard.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await router.close();
});

function connect(
  body: string,
  headers: Record<string, string> = { cookie: aliceCookie, origin },
): Promise<Response> {
  return fetch(`${origin}/dashboard/api/connect`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

describe("the dashboard's Connect (POST /dashboard/api/connect)", () => {
  it("mints the login's own link to a backend each user enters values for", async () => {
    const response = await connect(JSON.stringify({ backend: "mine" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: "https://proxy.example/connect/mine?link=1" });
    expect(minted).toEqual(["alice/mine"]);
    // The page marks alice's own rows (the attribute escaped), so it offers her button only.
    const page = await fetch(`${origin}/dashboard`, { headers: { cookie: aliceCookie } });
    expect(await page.text()).toContain('<body data-principal="alice" ');
  });

  it("mints nothing for an operator's backend, a shared one or an unknown one (404)", async () => {
    minted.length = 0;
    for (const backend of ["ops", "shared", "nope"]) {
      const response = await connect(JSON.stringify({ backend }));
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: string };
      expect(body.error).toContain(`backend "${backend}" takes no link`);
    }
    expect(minted).toEqual([]);
  });

  it("refuses another site, no login, a bearer token it does not know and a bad body", async () => {
    minted.length = 0;
    const body = JSON.stringify({ backend: "mine" });
    expect(
      (await connect(body, { cookie: aliceCookie, origin: "https://evil.example" })).status,
    ).toBe(403);
    // The login cookie without an Origin: a form of another site could send it.
    expect((await connect(body, { cookie: aliceCookie })).status).toBe(403);
    expect((await connect(body, { origin })).status).toBe(401);
    expect((await connect(body, { authorization: "Bearer not-a-token-0123456789" })).status).toBe(
      401,
    );
    expect((await connect("{", { cookie: aliceCookie, origin })).status).toBe(400);
    expect((await connect("x".repeat(2048), { cookie: aliceCookie, origin })).status).toBe(413);
    expect(minted).toEqual([]);
    // Bob's bearer token mints Bob's link, never Alice's.
    const bob = await connect(body, { authorization: `Bearer ${BOB}` });
    expect(bob.status).toBe(200);
    expect(minted).toEqual(["bob/mine"]);
  });
});
