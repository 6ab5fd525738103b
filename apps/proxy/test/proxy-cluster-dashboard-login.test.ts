import type { DashboardSnapshot } from "@patchbay/dashboard";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  type ProxyReplica,
  redisCli,
  redisCommandCounts,
  startTestCluster,
  type TestCluster,
} from "./cluster-harness.js";
import { closeSdk, connectSdk, sampleEntry } from "./proxy-helpers.js";

// Three replicas on one Redis behind a round-robin balancer without affinity: a dashboard login
// made through the balancer holds on every replica, and a logout on one ends it on all.
const ADMIN = "admin-token-login-0123456789";
const TEAM = "team-token-login-0123456789";

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    profiles: { team: { servers: ["sample"] } },
    auth: {
      tokens: [
        { name: "admin", token: ADMIN },
        { name: "team", token: TEAM, profiles: ["team"] },
      ],
    },
  });
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
}, 30_000);

const balanced = (path: string) => new URL(path, cluster.balancer.url.origin);
const replica = (index: number) => cluster.replicas[index] as ProxyReplica;
/** The replica the balancer sent the last request to. */
const lastServed = () => `replica-${cluster.balancer.routed.at(-1)?.target}`;
let cookie = "";

function login(token: string): Promise<Response> {
  return fetch(balanced("/dashboard/login"), {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: cluster.balancer.url.origin,
    },
    body: new URLSearchParams({ token }).toString(),
    redirect: "manual",
  });
}

/** Opens the feed through the balancer: the first snapshot it pushes, or the refusal's status. */
function openFeed(): Promise<{ status: number; snapshot?: DashboardSnapshot }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(balanced("/dashboard/feed").href.replace(/^http/, "ws"), {
      headers: { cookie, origin: cluster.balancer.url.origin },
    });
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type: string; snapshot?: DashboardSnapshot };
      if (message.type !== "snapshot" || message.snapshot === undefined) return;
      // Resolved once the close handshake is done: the replica has let the page go, so its next
      // snapshot interval no longer checks this page's login again (one more HGET).
      const { snapshot } = message;
      socket.once("close", () => resolve({ status: 101, snapshot }));
      socket.close();
    });
    socket.on("unexpected-response", (_request, answer) => {
      answer.resume();
      resolve({ status: answer.statusCode ?? 0 });
    });
    socket.on("error", () => {});
  });
}

const snapshotThroughBalancer = () =>
  fetch(balanced("/dashboard/api/snapshot"), { headers: { cookie } });

/** What Redis holds, as text (`redis-cli`, Debian's package, on the test server's socket). */
const redisDump = (...command: string[]) => redisCli(cluster.redis.url, ...command);

describe("a dashboard login across three replicas behind a balancer without affinity", () => {
  it("refuses a profile-limited token and logs in an all-backends one through the balancer", async () => {
    expect((await login(TEAM)).status).toBe(401);
    const answer = await login(ADMIN);
    expect(answer.status).toBe(303);
    const setCookie = answer.headers.get("set-cookie") as string;
    expect(setCookie).toMatch(
      /^patchbay_dashboard=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=3600$/,
    );
    cookie = setCookie.split(";")[0] as string;
    // Redis holds the SHA-256 of the login id and the token's name (sealed with the cluster
    // secret): not the id, not a token.
    const stored = await redisDump("hgetall", "patchbay:dashboard-logins");
    expect(stored).toMatch(
      /^[0-9a-f]{64}\npb1\.[A-Za-z0-9_-]{43}\.\{"name":"admin","expiresAt":\d+\}\n$/,
    );
    const everything = await redisDump("--scan");
    for (const key of everything.split("\n").filter((name) => name !== "")) {
      const type = (await redisDump("type", key)).trim();
      if (type !== "hash" && type !== "string") continue;
      const value = await redisDump(type === "hash" ? "hgetall" : "get", key);
      expect(value).not.toContain(cookie.split("=")[1] as string);
      expect(value).not.toContain(ADMIN);
    }
  });

  it("serves the snapshot and the feed on every replica with that login, one HGET each", async () => {
    const before = (await redisCommandCounts(cluster.redis.url)).get("hget") ?? 0;
    const served = new Set<string>();
    for (let round = 0; round < 3; round += 1) {
      const answer = await snapshotThroughBalancer();
      expect(answer.status).toBe(200);
      const snapshot = (await answer.json()) as DashboardSnapshot;
      expect(snapshot.cluster?.replicaId).toBe(lastServed());
      served.add(lastServed());
    }
    expect([...served].sort()).toEqual(["replica-0", "replica-1", "replica-2"]);
    served.clear();
    for (let round = 0; round < 3; round += 1) {
      const feed = await openFeed();
      expect(feed.status).toBe(101);
      expect(feed.snapshot?.cluster?.replicaId).toBe(lastServed());
      served.add(lastServed());
    }
    expect([...served].sort()).toEqual(["replica-0", "replica-1", "replica-2"]);
    // Checking a login cookie costs one Redis command: six requests, six HGET.
    expect((await redisCommandCounts(cluster.redis.url)).get("hget")).toBe(before + 6);
  });

  it("names the owning token of a session on the replica that adopted it", async () => {
    const caller = await connectSdk(new URL("/mcp", replica(0).origin), {
      token: ADMIN,
      name: "adopted-client",
    });
    const sessionId = caller.transport.sessionId as string;
    // The same session's next request lands on replica-1, which adopts it from Redis.
    const ping = await fetch(new URL("/mcp", replica(1).origin), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${ADMIN}`,
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(ping.status).toBe(200);
    await ping.text();
    const snapshot = await fetch(new URL("/dashboard/api/snapshot", replica(1).origin), {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const sessions = ((await snapshot.json()) as DashboardSnapshot).sessions;
    expect(sessions).toContainEqual(
      expect.objectContaining({ client: "adopted-client", token: "admin", replica: "replica-1" }),
    );
    await closeSdk(caller);
  });

  it("ends the login on every replica when it logs out through one", async () => {
    const out = await fetch(balanced("/dashboard/logout"), {
      method: "POST",
      headers: { cookie, origin: cluster.balancer.url.origin },
      redirect: "manual",
    });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/^patchbay_dashboard=; .*Max-Age=0$/);
    const loggedOutOn = lastServed();
    const refused = new Set<string>();
    for (let round = 0; round < 3; round += 1) {
      expect((await snapshotThroughBalancer()).status).toBe(401);
      refused.add(lastServed());
      expect((await openFeed()).status).toBe(401);
      refused.add(lastServed());
    }
    expect([...refused].sort()).toEqual(["replica-0", "replica-1", "replica-2"]);
    expect(refused.has(loggedOutOn)).toBe(true);
    expect((await redisDump("hlen", "patchbay:dashboard-logins")).trim()).toBe("0");
  });

  it("counts login attempts per address across the three replicas together", async () => {
    // 10 a minute per address (the default), shared: with per-replica buckets 30 would pass.
    const statuses: number[] = [];
    const targets = new Set<number>();
    while (statuses.length < 31 && !statuses.includes(429)) {
      statuses.push((await login("not-a-token")).status);
      targets.add(cluster.balancer.routed.at(-1)?.target as number);
    }
    expect(statuses.at(-1)).toBe(429);
    // Two logins came before this test; a token may have come back since the first.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(9);
    expect(targets.size).toBe(3);
    for (let round = 0; round < 3; round += 1) expect((await login(ADMIN)).status).toBe(429);
  });
});
