import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRateLimiter, type SharedRateLimiter } from "@patchbay/http-gateway";
import { createRouter, parseGatewayConfig } from "@patchbay/router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { createCallFeed } from "./call-feed.js";
import type { DashboardCluster } from "./cluster-view.js";
import { createDashboard } from "./dashboard.js";
import { createMemoryLoginStore, type DashboardLoginStore } from "./login-store.js";

// Two dashboards as two replicas of one cluster whose login store and rate limits they share.
const ADMIN = "admin-token-0123456789";
const tokens = [{ name: "admin", token: ADMIN }];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function sharedLimiter(requestsPerMinute: number): () => SharedRateLimiter {
  const limiter = createRateLimiter({ requestsPerMinute });
  return () => ({ take: async (key) => limiter.take(key) });
}

async function replica(
  replicaId: string,
  shared: Omit<DashboardCluster, "replicaId" | "replicas">,
) {
  const router = createRouter({
    config: parseGatewayConfig({ mcpServers: {} }).config,
    async connect() {
      throw new Error("no backends");
    },
  });
  await router.start();
  const cluster: DashboardCluster = { replicaId, replicas: () => [], ...shared };
  const dashboard = createDashboard({ router, feed: createCallFeed(), tokens, cluster });
  const server = createServer(
    (request, response) => void dashboard.handleRequest(request, response),
  );
  server.on("upgrade", (request, socket, head) => dashboard.handleUpgrade(request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await dashboard.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await router.close();
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    login: (token: string) =>
      fetch(`${origin}/dashboard/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ token }).toString(),
        redirect: "manual",
      }),
    logout: (cookie: string) =>
      fetch(`${origin}/dashboard/logout`, {
        method: "POST",
        headers: { cookie, origin },
        redirect: "manual",
      }),
    snapshot: (cookie: string) =>
      fetch(`${origin}/dashboard/api/snapshot`, { headers: { cookie } }),
    /** An open feed socket (a page watching), once its first snapshot arrived. */
    openFeed: (cookie: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(`${origin.replace("http", "ws")}/dashboard/feed`, {
          headers: { cookie, origin },
        });
        socket.once("message", () => resolve(socket));
        socket.on("error", reject);
        cleanups.push(async () => socket.terminate());
      }),
    /** The status of a feed upgrade with `cookie`: 101 when the page may watch. */
    feedStatus: (cookie: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${origin.replace("http", "ws")}/dashboard/feed`, {
          headers: { cookie, origin },
        });
        socket.on("upgrade", () => {
          resolve(101);
          socket.close();
        });
        socket.on("unexpected-response", (_request, answer) => resolve(answer.statusCode ?? 0));
        socket.on("error", () => {});
      }),
  };
}

describe("dashboard logins shared by replicas", () => {
  it("makes a login on one replica valid on the other, and a logout on either ends it on both", async () => {
    const dashboardLogins = createMemoryLoginStore();
    const a = await replica("replica-a", { dashboardLogins });
    const b = await replica("replica-b", { dashboardLogins });
    const answer = await a.login(ADMIN);
    expect(answer.status).toBe(303);
    const setCookie = answer.headers.get("set-cookie") as string;
    expect(setCookie).toMatch(
      /^patchbay_dashboard=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=3600$/,
    );
    const cookie = setCookie.split(";")[0] as string;
    expect((await b.snapshot(cookie)).status).toBe(200);
    expect(await b.feedStatus(cookie)).toBe(101);

    const out = await b.logout(cookie);
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await a.snapshot(cookie)).status).toBe(401);
    expect(await a.feedStatus(cookie)).toBe(401);
    expect((await b.snapshot(cookie)).status).toBe(401);
  });

  it("closes open feeds when their login ends: at once on the replica logged out, at the next snapshot interval on the others", async () => {
    // Only the snapshot interval is faked: sockets and fetch run on real I/O.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    cleanups.push(async () => void vi.useRealTimers());
    const dashboardLogins = createMemoryLoginStore();
    const a = await replica("replica-a", { dashboardLogins });
    const b = await replica("replica-b", { dashboardLogins });
    const cookie = ((await a.login(ADMIN)).headers.get("set-cookie") as string).split(
      ";",
    )[0] as string;
    const onA = await a.openFeed(cookie);
    const onB = await b.openFeed(cookie);
    const closedOnA = new Promise<number>((resolve) => onA.once("close", resolve));
    const closedOnB = new Promise<number>((resolve) => onB.once("close", resolve));

    expect((await a.logout(cookie)).status).toBe(303);
    expect(await closedOnA).toBe(4401);
    // Replica b learns of the logout when it next checks its pages (every snapshot interval).
    vi.advanceTimersByTime(5_000);
    expect(await closedOnB).toBe(4401);
  });

  it("counts login attempts per address across the replicas when the cluster shares rate limits", async () => {
    const shared = {
      dashboardLogins: createMemoryLoginStore(),
      createRateLimiter: sharedLimiter(2),
    };
    const a = await replica("replica-a", shared);
    const b = await replica("replica-b", shared);
    expect((await a.login("wrong")).status).toBe(401);
    expect((await b.login("wrong")).status).toBe(401);
    // A third attempt, on either replica, is over the limit of 2 a minute.
    expect((await a.login(ADMIN)).status).toBe(429);
    expect((await b.login(ADMIN)).status).toBe(429);
  });

  it("answers 503 when the login store cannot be reached, and never 200", async () => {
    const down = () => Promise.reject(new Error("ECONNREFUSED"));
    const failing: DashboardLoginStore = { add: down, get: down, remove: down };
    const a = await replica("replica-a", { dashboardLogins: failing });
    const login = await a.login(ADMIN);
    expect(login.status).toBe(503);
    expect(await login.json()).toEqual({
      error: "the dashboard's login store cannot be reached; try again shortly",
    });
    const cookie = `patchbay_dashboard=${"A".repeat(43)}`;
    expect((await a.snapshot(cookie)).status).toBe(503);
    expect(await a.feedStatus(cookie)).toBe(503);
    const out = await a.logout(cookie);
    expect(out.status).toBe(503);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
  });
});
