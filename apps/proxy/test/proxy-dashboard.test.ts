import { request as httpRequest } from "node:http";
import type { DashboardSnapshot } from "@patchbay/dashboard";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  closeSdk,
  connectSdk,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const ADMIN = "admin-token-0123456789abcdef";
const TEAM = "team-token-0123456789abcdef";
const BACKEND_SECRET = "backend-secret-value-42";

let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry({ env: { API_KEY: BACKEND_SECRET } }) },
    profiles: { team: { servers: ["sample"] } },
    auth: {
      tokens: [
        { name: "admin", token: ADMIN },
        { name: "team", token: TEAM, profiles: ["team"] },
      ],
    },
  });
});
afterAll(() => proxy.stop());

function login(token: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(proxy.at("/dashboard/login"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ token }).toString(),
    redirect: "manual",
  });
}

/** Logs in and returns the `name=value` of the login cookie. */
async function loginCookie(): Promise<string> {
  const answer = await login(ADMIN);
  expect(answer.status).toBe(303);
  return (answer.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

interface FeedMessage {
  type: string;
  calls?: { method: string; tool?: string; backend?: string; outcome: string; client?: string }[];
}

/** An open feed: every message from the first, and a wait for a message that matches. */
interface OpenFeed {
  socket: WebSocket;
  messages: FeedMessage[];
  next(match: (message: FeedMessage) => boolean): Promise<FeedMessage>;
}

/** Opens the feed; resolves once open, or with the refusal's status. */
function openFeed(headers: Record<string, string>): Promise<OpenFeed | number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(proxy.at("/dashboard/feed").href.replace(/^http/, "ws"), {
      headers,
    });
    const messages: FeedMessage[] = [];
    const waiters: { match: (message: FeedMessage) => boolean; resolve(m: FeedMessage): void }[] =
      [];
    // Listening before `open`: the first message may come in the same chunk as the handshake.
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as FeedMessage;
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.match(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.on("open", () =>
      resolve({
        socket,
        messages,
        next: (match) =>
          new Promise((resolveMessage) => {
            const found = messages.find(match);
            if (found) resolveMessage(found);
            else waiters.push({ match, resolve: resolveMessage });
          }),
      }),
    );
    socket.on("error", () => {});
  });
}

describe("the dashboard's login", () => {
  it("shows a login form, not data, without a login, with a strict Content-Security-Policy", async () => {
    const answer = await fetch(proxy.at("/dashboard"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(answer.headers.get("x-frame-options")).toBe("DENY");
    const page = await answer.text();
    expect(page).toContain('<form method="post" action="/dashboard/login">');
    expect(page).not.toContain('id="backends"');
    expect((await fetch(proxy.at("/dashboard/api/snapshot"))).status).toBe(401);
  });

  it("refuses a wrong token and a token limited to a profile, without echoing what was typed", async () => {
    for (const token of [`${ADMIN}x`, TEAM]) {
      const answer = await login(token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("set-cookie")).toBeNull();
      const page = await answer.text();
      expect(page).toContain("That token is not accepted here");
      expect(page).not.toContain(token);
    }
    const bearer = await fetch(proxy.at("/dashboard/api/snapshot"), {
      headers: { authorization: `Bearer ${TEAM}` },
    });
    expect(bearer.status).toBe(401);
  });

  it("marks the cookie Secure with http.secureCookie (HTTPS in front)", async () => {
    const secure = await startTestProxy({
      mcpServers: { sample: sampleEntry({ start: "lazy" }) },
      auth: { tokens: [{ name: "admin", token: ADMIN }] },
      http: { secureCookie: true },
    });
    try {
      const answer = await fetch(secure.at("/dashboard/login"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: ADMIN }).toString(),
        redirect: "manual",
      });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Strict; Secure;/);
    } finally {
      await secure.stop();
    }
  });

  it("exchanges a token for an HttpOnly SameSite=Strict cookie that is not the token, until logout", async () => {
    const answer = await login(ADMIN);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard");
    const setCookie = answer.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(
      /^patchbay_dashboard=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=3600$/,
    );
    expect(setCookie).not.toContain(ADMIN);
    const cookie = setCookie.split(";")[0] as string;
    const page = await fetch(proxy.at("/dashboard"), { headers: { cookie } });
    expect(await page.text()).toContain('id="backends"');
    const logout = await fetch(proxy.at("/dashboard/logout"), {
      method: "POST",
      headers: { cookie },
      redirect: "manual",
    });
    expect(logout.status).toBe(303);
    expect(logout.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await fetch(proxy.at("/dashboard/api/snapshot"), { headers: { cookie } })).status).toBe(
      401,
    );
  });

  it("refuses a login posted from another origin, and a foreign Host (DNS rebinding)", async () => {
    expect((await login(ADMIN, { origin: "http://evil.example" })).status).toBe(403);
    const rebound = await new Promise<number>((resolve, reject) => {
      // fetch may not set Host; node:http may.
      httpRequest(proxy.at("/dashboard"), { headers: { host: "evil.example" } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(rebound).toBe(403);
  });
});

describe("the dashboard's data", () => {
  it("gives a snapshot to a bearer token allowed every backend, with no secret in it", async () => {
    const answer = await fetch(proxy.at("/dashboard/api/snapshot"), {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const snapshot = JSON.parse(text);
    expect(snapshot.backends).toEqual([
      expect.objectContaining({ name: "sample", status: "running", protocolVersion: "2025-11-25" }),
    ]);
    expect(snapshot.tools).toContainEqual({ name: "sample__echo", backend: "sample" });
    expect(snapshot.tools).toContainEqual({
      name: "gateway_status",
      backend: "gateway",
      builtIn: true,
    });
    // A single process: no replicas to list.
    expect(snapshot.cluster).toBeNull();
    expect(text).not.toContain(BACKEND_SECRET);
    expect(text).not.toContain(ADMIN);
    expect(text).not.toContain("API_KEY");
  });

  it("lists sessions with client name, profile and token name, and leaves out its own", async () => {
    const caller = await connectSdk(proxy.at("/mcp/team"), { token: TEAM, name: "listed-client" });
    const snapshot = (await (
      await fetch(proxy.at("/dashboard/api/snapshot"), {
        headers: { authorization: `Bearer ${ADMIN}` },
      })
    ).json()) as DashboardSnapshot;
    expect(snapshot.sessions).toEqual([
      expect.objectContaining({ client: "listed-client", profile: "team", token: "team" }),
    ]);
    await closeSdk(caller);
  });

  it("pushes calls over the feed to a logged-in page, and refuses the feed otherwise", async () => {
    const cookie = await loginCookie();
    expect(await openFeed({})).toBe(401);
    expect(await openFeed({ cookie, origin: "http://evil.example" })).toBe(403);
    const feed = await openFeed({ cookie, origin: proxy.at("/").origin });
    if (typeof feed === "number") throw new Error(`feed refused with ${feed}`);
    await feed.next((message) => message.type === "calls");
    const caller = await connectSdk(proxy.url, { token: ADMIN });
    await caller.client.callTool({ name: "sample__echo", arguments: { message: "feed" } });
    const echoed = await feed.next(
      (message) => message.calls?.some((call) => call.tool === "sample__echo") ?? false,
    );
    expect(echoed.calls?.find((call) => call.tool === "sample__echo")).toMatchObject({
      method: "tools/call",
      backend: "sample",
      outcome: "success",
    });
    // A snapshot first, then the history, then live calls.
    expect(feed.messages.slice(0, 2).map((message) => message.type)).toEqual(["snapshot", "calls"]);
    // The dashboard's own catalogue reads never show up as calls.
    const methods = feed.messages.flatMap((message) => message.calls ?? []).map((c) => c.method);
    expect(methods).not.toContain("tools/list");
    expect(methods).toContain("initialize");
    feed.socket.close();
    await closeSdk(caller);
  });
});

describe("the caller of a modern (2026-07-28) request", () => {
  it("is the static token's name in the feed, though the request has no session", async () => {
    const cookie = await loginCookie();
    const feed = await openFeed({ cookie, origin: proxy.at("/").origin });
    if (typeof feed === "number") throw new Error(`feed refused with ${feed}`);
    await feed.next((message) => message.type === "calls");
    const before = feed.messages.length;
    const answer = await fetch(proxy.at("/mcp/team"), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${TEAM}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "sample__echo",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "sample__echo",
          arguments: { message: "modern" },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    expect(await answer.json()).toHaveProperty("result");
    const echoed = await feed.next(
      (message) =>
        feed.messages.indexOf(message) >= before &&
        (message.calls?.some((call) => call.tool === "sample__echo") ?? false),
    );
    expect(echoed.calls?.find((call) => call.tool === "sample__echo")).toMatchObject({
      method: "tools/call",
      backend: "sample",
      outcome: "success",
      client: "team",
    });
    feed.socket.close();
  });
});

describe("login attempts", () => {
  it("are limited per client address (10 a minute by default)", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      statuses.push((await login(`wrong-${attempt}`)).status);
    }
    // Earlier tests used some of the minute's attempts; past the limit, 429.
    expect(statuses.at(-1)).toBe(429);
  });
});
