import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { createServer as createMcpServer } from "@patchbay/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCallFeed } from "./call-feed.js";
import { createDashboard, type Dashboard } from "./dashboard.js";
import type { DashboardSnapshot } from "./snapshot.js";

// A backend whose tools are not pinned (trustOnFirstUse: false): each is withheld until approved.
const OPERATOR = "operator-token-0123456789";
const VIEWER = "viewer-token-0123456789";
const tokens = [
  { name: "ops", token: OPERATOR, operator: true },
  { name: "viewer", token: VIEWER },
];

let router: Router;
let dashboard: Dashboard;
let server: Server;
let origin: string;
let operatorCookie: string;
let viewerCookie: string;

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
  const notes = createMcpServer({ name: "notes", version: "1.0.0" });
  const ok = async () => ({ content: [{ type: "text" as const, text: "ok" }] });
  notes.registerTool("read_note", { description: "Reads a note." }, ok);
  notes.registerTool("write_note", { description: "Writes a note." }, ok);
  router = createRouter({
    config: parseGatewayConfig({
      mcpServers: { notes: { command: "in-memory" } },
      pins: { trustOnFirstUse: false },
    }).config,
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await notes.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  dashboard = createDashboard({ router, feed: createCallFeed(), tokens, snapshotIntervalMs: 0 });
  server = createServer((request, response) => void dashboard.handleRequest(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  operatorCookie = await login(OPERATOR);
  viewerCookie = await login(VIEWER);
});

afterAll(async () => {
  await dashboard.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await router.close();
});

function approve(
  body: string,
  headers: Record<string, string> = { cookie: operatorCookie, origin },
): Promise<Response> {
  return fetch(`${origin}/dashboard/api/pins/approve`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

async function snapshot(): Promise<DashboardSnapshot> {
  const response = await fetch(`${origin}/dashboard/api/snapshot`, {
    headers: { cookie: viewerCookie },
  });
  return (await response.json()) as DashboardSnapshot;
}

const errorOf = async (response: Response) =>
  [response.status, ((await response.json()) as { error: string }).error] as const;

describe("approving pins from the dashboard", () => {
  it("lists withheld definitions to any login, as data the page writes as text", async () => {
    const { withheld, tools } = await snapshot();
    expect(withheld.map((item) => [item.name, item.status])).toEqual([
      ["notes__read_note", "unpinned"],
      ["notes__write_note", "unpinned"],
    ]);
    expect(tools.map((tool) => tool.name)).not.toContain("notes__read_note");
  });

  it("marks the page for an operator's login only", async () => {
    const page = (cookie: string) =>
      fetch(`${origin}/dashboard`, { headers: { cookie } }).then((response) => response.text());
    expect(await page(operatorCookie)).toContain('<body data-operator="true"');
    expect(await page(viewerCookie)).not.toContain("data-operator");
  });

  it("refuses anyone but an operator with 403, and no login with 401", async () => {
    const body = JSON.stringify({ tool: "notes__read_note" });
    expect(await errorOf(await approve(body, { cookie: viewerCookie, origin }))).toEqual([
      403,
      "only an operator's token (operator: true) may approve pins",
    ]);
    expect((await approve(body, { authorization: `Bearer ${VIEWER}` })).status).toBe(403);
    expect((await approve(body, { origin })).status).toBe(401);
    expect((await snapshot()).withheld).toHaveLength(2);
  });

  it("refuses a cross-site request: another Origin, no Origin with the cookie, or not JSON", async () => {
    const body = JSON.stringify({ tool: "notes__read_note" });
    const evil = await approve(body, { cookie: operatorCookie, origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    // Allowed by the Host/Origin guard (loopback), but not the page's own origin.
    const loopback = origin.replace("127.0.0.1", "localhost");
    expect(
      await errorOf(await approve(body, { cookie: operatorCookie, origin: loopback })),
    ).toEqual([403, "cross-origin request"]);
    expect(await errorOf(await approve(body, { cookie: operatorCookie }))).toEqual([
      403,
      "a request made with the login cookie must carry its Origin",
    ]);
    const form = await fetch(`${origin}/dashboard/api/pins/approve`, {
      method: "POST",
      headers: {
        cookie: operatorCookie,
        origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "tool=notes__read_note",
    });
    expect(form.status).toBe(415);
    expect((await snapshot()).withheld).toHaveLength(2);
  });

  it("answers 400 for a bad body and 413 for a large one", async () => {
    const expected = 'expected {"tool": "<exposed name>"} or {"backend": "<key>", "all": true}';
    for (const body of ["not json", "[]", '{"tools": "x"}', '{"backend": "notes"}', "null"]) {
      expect(await errorOf(await approve(body))).toEqual([400, expected]);
    }
    expect((await approve(JSON.stringify({ tool: "x".repeat(20_000) }))).status).toBe(413);
  });

  it("approves one item for an operator's login, then the rest of its backend, then says nothing matches", async () => {
    const one = await approve(JSON.stringify({ tool: "notes__read_note" }));
    expect(await one.json()).toEqual({ approved: ["notes__read_note"] });
    let current = await snapshot();
    expect(current.withheld.map((item) => item.name)).toEqual(["notes__write_note"]);
    expect(current.tools.map((tool) => tool.name)).toContain("notes__read_note");

    // A script may send the operator's token instead of the cookie (no Origin needed then).
    const rest = await approve(JSON.stringify({ backend: "notes", all: true }), {
      authorization: `Bearer ${OPERATOR}`,
    });
    expect(await rest.json()).toEqual({ approved: ["notes__write_note"] });
    current = await snapshot();
    expect(current.withheld).toEqual([]);
    expect(current.tools.map((tool) => tool.name)).toContain("notes__write_note");

    expect(await errorOf(await approve(JSON.stringify({ tool: "notes__read_note" })))).toEqual([
      404,
      'nothing withheld matches "notes__read_note": it was approved already, or never withheld',
    ]);
  });
});
