// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText (rendered text, table cells apart), not a DOM node's
import type { DashboardReplica, DashboardSnapshot } from "@patchbay/dashboard";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { launchChromium } from "./browser-sign-in.js";
import { type ProxyReplica, startTestCluster, type TestCluster } from "./cluster-harness.js";
import { closeSdk, connectSdk, sampleEntry } from "./proxy-helpers.js";

// Three replicas on one Redis behind a round-robin balancer; the dashboard of replica-0 watches.
const ADMIN = "admin-token-0123456789abcdef";

let cluster: TestCluster;
let browser: Browser | undefined;
beforeAll(async () => {
  cluster = await startTestCluster({
    mcpServers: { sample: sampleEntry() },
    auth: { tokens: [{ name: "admin", token: ADMIN }] },
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await cluster?.stop();
}, 30_000);

const replica = (index: number) => cluster.replicas[index] as ProxyReplica;
const at = (index: number, path: string) => new URL(path, replica(index).origin);

/** Logs in on one replica's own address (a login holds on every replica) and returns the cookie. */
async function loginCookie(index: number): Promise<string> {
  const answer = await fetch(at(index, "/dashboard/login"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: ADMIN }).toString(),
    redirect: "manual",
  });
  expect(answer.status).toBe(303);
  return (answer.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

/** The snapshots a replica's dashboard pushes over its feed, and a wait for one that matches. */
async function watchSnapshots(index: number) {
  const cookie = await loginCookie(index);
  const socket = new WebSocket(at(index, "/dashboard/feed").href.replace(/^http/, "ws"), {
    headers: { cookie, origin: replica(index).origin.origin },
  });
  const snapshots: DashboardSnapshot[] = [];
  const waiters = new Set<{
    match(s: DashboardSnapshot): boolean;
    resolve(s: DashboardSnapshot): void;
  }>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type: string; snapshot?: DashboardSnapshot };
    if (message.type !== "snapshot" || message.snapshot === undefined) return;
    snapshots.push(message.snapshot);
    for (const waiter of [...waiters]) {
      if (waiter.match(message.snapshot)) {
        waiters.delete(waiter);
        waiter.resolve(message.snapshot);
      }
    }
  });
  socket.on("error", () => {});
  return {
    snapshots,
    close: () => socket.close(),
    next: (match: (snapshot: DashboardSnapshot) => boolean) =>
      new Promise<DashboardSnapshot>((resolve) => {
        const found = snapshots.find(match);
        if (found !== undefined) resolve(found);
        else waiters.add({ match, resolve });
      }),
  };
}

const stateOf = (snapshot: DashboardSnapshot, replicaId: string) =>
  snapshot.cluster?.replicas.find((entry) => entry.replicaId === replicaId)?.state;
const selfOf = (snapshot: DashboardSnapshot) =>
  snapshot.cluster?.replicas.find((entry) => entry.self) as DashboardReplica;

/** `/metrics` of one replica as text. */
async function metrics(index: number): Promise<string> {
  return (await fetch(at(index, "/metrics"))).text();
}

describe("the dashboard of a three-replica cluster", () => {
  it("lists the three replicas with their counts, this page's replica, and sessions and gauges per replica", async () => {
    const feed = await watchSnapshots(0);
    const all = await feed.next((snapshot) =>
      ["replica-0", "replica-1", "replica-2"].every((id) => stateOf(snapshot, id) === "live"),
    );
    expect(all.cluster?.replicaId).toBe("replica-0");
    expect(all.cluster?.live).toBe(3);
    expect(selfOf(all).replicaId).toBe("replica-0");

    // A session opened on replica-0 is listed there, named with its replica, and its calls count.
    const caller = await connectSdk(at(0, "/mcp"), { token: ADMIN, name: "replica-0-client" });
    await caller.client.callTool({ name: "sample__echo", arguments: { message: "hi" } });
    const counted = await feed.next(
      (snapshot) => (selfOf(snapshot)?.counts?.callsServed ?? 0) >= 2,
    );
    expect(selfOf(counted).counts).toMatchObject({ sessions: 1, callsInFlight: 0 });
    expect(counted.sessions).toEqual([
      expect.objectContaining({ client: "replica-0-client", token: "admin", replica: "replica-0" }),
    ]);
    // The shared records of every replica list it too, with the token's name.
    expect(counted.cluster?.sessions).toContainEqual(
      expect.objectContaining({ client: "replica-0-client", token: "admin", profile: null }),
    );

    const text = await metrics(0);
    expect(text).toContain('patchbay_cluster_replicas{replica="replica-0"} 3\n');
    expect(text).toContain('patchbay_cluster_calls_in_flight{replica="replica-0"} 0\n');
    expect(text).toContain('patchbay_cluster_replica_sessions{replica="replica-0"} 1\n');
    expect(text).toContain('patchbay_cluster_replicas_gone{replica="replica-0"} 0\n');
    await closeSdk(caller);
    feed.close();
  }, 60_000);

  it("shows a replica killed with SIGKILL as gone, live on the others, and no secret anywhere", async () => {
    const feed = await watchSnapshots(1);
    const first = await watchSnapshots(0);
    await feed.next((snapshot) => stateOf(snapshot, "replica-2") === "live");
    const victim = replica(2);
    process.kill(victim.child.pid as number, "SIGKILL");
    await victim.exited;
    // Pushed by replica-1 as soon as a heartbeat finds replica-2's presence channel closed.
    const gone = await feed.next((snapshot) => stateOf(snapshot, "replica-2") === "gone");
    expect(gone.cluster?.live).toBe(2);
    expect(stateOf(gone, "replica-0")).toBe("live");
    feed.close();
    // replica-0 sees it too, and its gauges say so.
    await first.next((snapshot) => stateOf(snapshot, "replica-2") === "gone");
    first.close();
    const text = await metrics(0);
    expect(text).toContain('patchbay_cluster_replicas{replica="replica-0"} 2\n');
    expect(text).toContain('patchbay_cluster_replicas_gone{replica="replica-0"} 1\n');

    const snapshot = await fetch(at(0, "/dashboard/api/snapshot"), {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const body = await snapshot.text();
    expect(body).not.toContain(ADMIN);
    expect(body).not.toContain(cluster.redis.url);
    expect(body).not.toContain(cluster.redis.url.replace("unix://", ""));
  }, 60_000);

  it("shows the replicas panel in headless Chromium, the killed replica as gone", async () => {
    browser = await launchChromium();
    // A session open before the page loads is in its first snapshot.
    const caller = await connectSdk(at(0, "/mcp"), { token: ADMIN, name: "browser-cluster" });
    const page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(at(0, "/dashboard").href);
    await page.getByLabel("Token").fill(ADMIN);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("status").filter({ hasText: "Live" }).waitFor();

    const panel = page.getByRole("table", { name: "Replicas" });
    await panel.getByRole("row", { name: /replica-2/ }).waitFor();
    expect(await panel.getByRole("row").count()).toBe(4);
    expect(await panel.getByRole("row", { name: /replica-0 \(this page\)/ }).innerText()).toMatch(
      /replica-0 \(this page\)\s+live/,
    );
    expect(await panel.getByRole("row", { name: /replica-2/ }).innerText()).toMatch(
      /replica-2\s+gone/,
    );
    expect(await page.locator("#cluster-note").innerText()).toBe(
      "2 of 3 replicas live; this page is served by replica-0.",
    );
    expect(await page.getByRole("heading", { name: /^Sessions on/ }).innerText()).toBe(
      "Sessions on replica-0",
    );
    const shared = page.getByRole("table", { name: "Sessions in the cluster" });
    expect(await shared.getByRole("row", { name: /browser-cluster/ }).innerText()).toMatch(
      /browser-cluster\s+\(all backends\)\s+admin\s+2025-11-25/,
    );

    // Each call in the live feed names the replica that served it.
    await caller.client.callTool({ name: "sample__echo", arguments: { message: "hi" } });
    // The first test's call came with the history; this one is the second.
    const rows = page.locator("#calls tbody tr", { hasText: "sample__echo" });
    await rows.nth(1).waitFor();
    for (const row of await rows.all()) {
      expect(await row.innerText()).toMatch(/[0-9a-f]{32}\s+replica-0$/);
    }
    await closeSdk(caller);
    // To look at it: PATCHBAY_CLUSTER_DASHBOARD_SCREENSHOT=/tmp/cluster-dashboard.png.
    const keep = process.env.PATCHBAY_CLUSTER_DASHBOARD_SCREENSHOT;
    if (keep !== undefined) await page.screenshot({ path: keep });
    expect(await page.content()).not.toContain(ADMIN);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 60_000);
});
