import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryTransportPair, type Frame } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig } from "@patchbay/router";
import { createServer as createMcpServer } from "@patchbay/server";
import { createTelemetry } from "@patchbay/telemetry";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createCallFeed } from "./call-feed.js";
import type { ClusterReplicaSource, DashboardCluster, LostReplicaSource } from "./cluster-view.js";
import { createDashboard } from "./dashboard.js";
import type { DashboardSnapshot } from "./snapshot.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const NOW = Date.parse("2026-11-26T12:00:00.000Z");
const counts = {
  sessions: 1,
  callsInFlight: 2,
  callsServed: 30,
  callsPerMinute: 10,
  errorsPerMinute: 1,
};

/** A cluster whose replica list the test sets, and whose change listeners it calls. */
function fakeCluster(replicas: ClusterReplicaSource[]) {
  const listeners = new Set<() => void>();
  const cluster: DashboardCluster & { set(next: ClusterReplicaSource[]): void } = {
    replicaId: "replica-a",
    replicas: () => replicas,
    onReplicasChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      replicas = next;
      for (const listener of listeners) listener();
    },
  };
  return cluster;
}

/** A dashboard without auth over one in-memory backend, as replica `replica-a` of `cluster`. */
async function serve(
  cluster: DashboardCluster | undefined,
  lostReplicas?: () => readonly LostReplicaSource[],
) {
  const backend = createMcpServer({ name: "notes", version: "1.0.0" });
  backend.registerTool("read", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
  const feed = createCallFeed();
  const router = createRouter({
    config: parseGatewayConfig({ mcpServers: { notes: { command: "in-memory" } } }).config,
    telemetry: createTelemetry({ source: "test", sinks: [feed.sink] }),
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await backend.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  const dashboard = createDashboard({
    router,
    feed,
    tokens: undefined,
    cluster,
    snapshotIntervalMs: 0,
    now: () => NOW,
    lostReplicas,
  });
  const server = createServer((request, response) => {
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
  const base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const snapshot = async () =>
    (await (await fetch(`http://${base}/dashboard/api/snapshot`)).json()) as DashboardSnapshot;
  return { dashboard, router, base, snapshot };
}

/** Opens a client session on the dashboard's router and calls `notes__read` once. */
async function clientCalls(router: ReturnType<typeof createRouter>) {
  const [client, server] = createMemoryTransportPair();
  const waiting = new Map<unknown, (frame: Frame) => void>();
  client.onFrame((frame) => {
    if (!Array.isArray(frame) && "id" in frame) waiting.get(frame.id)?.(frame);
  });
  const request = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<Frame>((resolve) => {
      waiting.set(id, resolve);
      void client.send({ jsonrpc: "2.0", id, method, params });
    });
  await client.start();
  await router.serve(server);
  await request(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "cluster-client", version: "2.0" },
  });
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  expect(await request(2, "tools/call", { name: "notes__read", arguments: {} })).toMatchObject({
    result: { content: [{ type: "text", text: "hi" }] },
  });
  return client;
}

const live = (replicaId: string, extra: Partial<ClusterReplicaSource> = {}) => ({
  replicaId,
  state: "live" as const,
  startedAt: NOW - 60_000,
  lastBeatAt: NOW - 1_500,
  ...extra,
});

describe("the dashboard of a cluster replica", () => {
  it("says null for the cluster of a single process, and names no replica", async () => {
    const { snapshot } = await serve(undefined);
    const current = await snapshot();
    expect(current.cluster).toBeNull();
  });

  it("lists every replica with its state, ages and counts, and which one serves the page", async () => {
    const cluster = fakeCluster([
      live("replica-a", { stats: counts }),
      live("replica-b", { stats: counts }),
      live("replica-d"),
      { ...live("replica-c"), state: "gone", lastBeatAt: NOW - 9_000 },
    ]);
    const { snapshot } = await serve(cluster);
    expect((await snapshot()).cluster).toEqual({
      replicaId: "replica-a",
      live: 3,
      replicas: [
        {
          replicaId: "replica-a",
          state: "live",
          self: true,
          startedAt: "2026-11-26T11:59:00.000Z",
          lastBeatAgeMs: 1_500,
          // Its own row: the counts of now (no session, no call yet), calls in flight as it beat.
          counts: {
            sessions: 0,
            callsInFlight: 2,
            callsServed: 0,
            callsPerMinute: 0,
            errorsPerMinute: 0,
          },
        },
        {
          replicaId: "replica-b",
          state: "live",
          self: false,
          startedAt: "2026-11-26T11:59:00.000Z",
          lastBeatAgeMs: 1_500,
          counts,
        },
        {
          replicaId: "replica-d",
          state: "live",
          self: false,
          startedAt: "2026-11-26T11:59:00.000Z",
          lastBeatAgeMs: 1_500,
          counts: null,
        },
        {
          replicaId: "replica-c",
          state: "gone",
          self: false,
          startedAt: "2026-11-26T11:59:00.000Z",
          lastBeatAgeMs: 9_000,
          counts: null,
        },
      ],
      sessions: null,
      sessionsTruncated: false,
      lostReplicas: [],
    });
  });

  it("lists the replicas this one found gone, with the calls it failed over", async () => {
    const cluster = fakeCluster([
      live("replica-a"),
      { ...live("replica-c"), state: "gone", lastBeatAt: NOW - 9_000 },
    ]);
    const lost = [
      {
        replicaId: "replica-c",
        lostAt: "2026-11-26T11:59:55.000Z",
        failedOver: 3,
        unanswerable: 1,
      },
      // Fields from another process's records are copied by name and shape only.
      {
        replicaId: "x".repeat(100),
        lostAt: "not a time",
        failedOver: -1,
        unanswerable: 2,
        extra: "dropped",
      } as LostReplicaSource,
    ];
    const { snapshot } = await serve(cluster, () => lost);
    expect((await snapshot()).cluster?.lostReplicas).toEqual([
      {
        replicaId: "replica-c",
        lostAt: "2026-11-26T11:59:55.000Z",
        failedOver: 3,
        unanswerable: 1,
      },
      {
        replicaId: "x".repeat(64),
        lostAt: "1970-01-01T00:00:00.000Z",
        failedOver: 0,
        unanswerable: 2,
      },
    ]);
  });

  it("lists every replica's shared sessions with the token's name only, and null when Redis fails", async () => {
    const cluster = {
      ...fakeCluster([live("replica-a")]),
      async sessionSummaries() {
        const shared = {
          client: "far-client",
          clientVersion: "3.1",
          profile: "",
          owner: "alice",
          protocolVersion: "2025-11-25",
          lastActivityAt: NOW - 4_000,
          sessionId: "secret-session-id",
          token: "s3cret",
        };
        return { sessions: [shared], truncated: true };
      },
    };
    const { snapshot } = await serve(cluster);
    const current = await snapshot();
    expect(current.cluster?.sessions).toEqual([
      {
        client: "far-client",
        clientVersion: "3.1",
        profile: null,
        token: "alice",
        protocolVersion: "2025-11-25",
        idleMs: 4_000,
      },
    ]);
    expect(current.cluster?.sessionsTruncated).toBe(true);
    expect(JSON.stringify(current)).not.toMatch(/secret-session-id|s3cret/);
    await cleanup?.();
    const failing = await serve({
      ...fakeCluster([live("replica-a")]),
      sessionSummaries: () => Promise.reject(new Error("Redis is down")),
    });
    expect((await failing.snapshot()).cluster?.sessions).toBeNull();
  });

  it("copies only the named fields of a replica, and cuts a long id", async () => {
    const odd = {
      ...live("x".repeat(300)),
      address: "redis://user:s3cret@10.0.0.1:6379",
      stats: { ...counts, token: "s3cret" },
    } as unknown as ClusterReplicaSource;
    const { snapshot } = await serve(fakeCluster([odd]));
    const text = JSON.stringify(await snapshot());
    expect(text).not.toContain("s3cret");
    expect((await snapshot()).cluster?.replicas[0]?.replicaId).toHaveLength(64);
  });

  it("names this replica on each session and call, and counts them for the heartbeat", async () => {
    const { dashboard, router, base, snapshot } = await serve(fakeCluster([live("replica-a")]));
    const calls = new Promise<unknown[]>((resolve) => {
      const socket = new WebSocket(`ws://${base}/dashboard/feed`);
      socket.on("message", (data) => {
        const message = JSON.parse(String(data)) as { type: string; calls?: unknown[] };
        if (message.type === "calls" && (message.calls?.length ?? 0) > 0) {
          socket.close();
          resolve(message.calls ?? []);
        }
      });
    });
    const client = await clientCalls(router);
    expect((await snapshot()).sessions).toEqual([
      expect.objectContaining({ client: "cluster-client", replica: "replica-a" }),
    ]);
    expect(await calls).toContainEqual(
      expect.objectContaining({ method: "tools/call", tool: "notes__read", replica: "replica-a" }),
    );
    expect(dashboard.counts()).toEqual({
      sessions: 1,
      callsServed: 2,
      callsPerMinute: 2,
      errorsPerMinute: 0,
    });
    await client.close();
  });

  it("sends open pages a fresh snapshot when a replica goes, without waiting for the interval", async () => {
    const cluster = fakeCluster([live("replica-a"), live("replica-b")]);
    const { base } = await serve(cluster);
    const socket = new WebSocket(`ws://${base}/dashboard/feed`);
    const snapshots: DashboardSnapshot[] = [];
    const goneSeen = new Promise<DashboardSnapshot>((resolve) => {
      socket.on("message", (data) => {
        const message = JSON.parse(String(data)) as { type: string; snapshot?: DashboardSnapshot };
        if (message.type !== "snapshot" || message.snapshot === undefined) return;
        snapshots.push(message.snapshot);
        // The first snapshot is the greeting; the change comes after the history.
        if (snapshots.length === 1)
          cluster.set([live("replica-a"), { ...live("replica-b"), state: "gone" }]);
        if (message.snapshot.cluster?.replicas.some((replica) => replica.state === "gone")) {
          resolve(message.snapshot);
        }
      });
    });
    const gone = await goneSeen;
    socket.close();
    expect(gone.cluster?.live).toBe(1);
    expect(snapshots).toHaveLength(2);
  });
});
