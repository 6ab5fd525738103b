import { randomBytes } from "node:crypto";
import type { JSONRPCRequest } from "@patchbay/jsonrpc-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createRedisCluster,
  type RedisCluster,
  type RedisClusterOptions,
} from "./redis-cluster.js";
import { connectRedis } from "./redis-connection.js";
import type { ListChange } from "./redis-list-changes.js";
import { MAX_RELAYED_MODERN_REQUESTS } from "./redis-modern-relay.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

/** The cluster secret of this file's replicas. */
const secret = randomBytes(32).toString("base64");

let redis: RedisServerProcess;
const clusters: RedisCluster[] = [];
let testCounter = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  testCounter += 1;
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
});

/** A replica on the test's own key prefix; probes every 20 ms (the heartbeat interval). */
async function replica(
  replicaId: string,
  more: Partial<RedisClusterOptions> = {},
): Promise<RedisCluster> {
  const cluster = await createRedisCluster({
    url: redis.url,
    secret,
    replicaId,
    keyPrefix: `modern${testCounter}:`,
    sessionTtlMs: 60_000,
    heartbeatIntervalMs: 20,
    ...more,
  });
  clusters.push(cluster);
  return cluster;
}

const retry: JSONRPCRequest = {
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "greet", requestState: "sealed" },
};
const request = { profile: "", caller: "alice", message: retry };
const quiet = () => ({ signal: new AbortController().signal, notify: () => {} });

/** Serves relayed requests on `holder` without ever answering; resolves once one arrives. */
function serveForever(holder: RedisCluster): Promise<void> {
  return new Promise((resolve) => {
    holder.modern.serve("", () => {
      resolve();
      return new Promise(() => {});
    });
  });
}

describe("the modern relay between replicas", () => {
  it("hands a retry to the holding replica and brings its notifications and answer back, in order", async () => {
    const a = await replica("a");
    const b = await replica("b");
    a.modern.serve("", async (relayed, context) => {
      context.notify("notifications/progress", { progressToken: "p", progress: 1 });
      return { jsonrpc: "2.0", id: relayed.message.id, result: { caller: relayed.caller } };
    });
    const notes: string[] = [];
    const answer = await b.modern.forward("a", request, {
      signal: new AbortController().signal,
      notify: (method) => notes.push(method),
    });
    expect(answer).toEqual({ jsonrpc: "2.0", id: 7, result: { caller: "alice" } });
    expect(notes).toEqual(["notifications/progress"]);
  });

  it("fails a retry for a replica that is gone at once, and one whose holder dies while serving it", async () => {
    const a = await replica("a");
    const b = await replica("b");
    await expect(b.modern.forward("nobody", request, quiet())).rejects.toThrow(
      "replica nobody is gone",
    );
    const serving = serveForever(a);
    const forwarded = b.modern.forward("a", request, quiet());
    await serving;
    await a.close();
    await expect(forwarded).rejects.toThrow("replica a is gone");
  });

  it("fails a retry the holder no longer runs (restarted under the same id), found by the next probe", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const serving = serveForever(a);
    const forwarded = b.modern.forward("a", request, quiet());
    await serving;
    // Checked before the new "a" starts: b may hear of it, and fail the call, while it starts.
    const failed = expect(forwarded).rejects.toThrow("it no longer runs the request");
    await replica("a");
    await failed;
  });

  it(`waits on at most ${MAX_RELAYED_MODERN_REQUESTS} relayed requests, and serves at most as many, refusing more clearly`, async () => {
    // Probes once a minute: none during the test.
    const slow = { heartbeatIntervalMs: 60_000 };
    const a = await replica("a", slow);
    const b = await replica("b", slow);
    const c = await replica("c", slow);
    let arrived = 0;
    let allArrived: () => void = () => {};
    const full = new Promise<void>((resolve) => {
      allArrived = resolve;
    });
    a.modern.serve("", () => {
      arrived += 1;
      if (arrived === MAX_RELAYED_MODERN_REQUESTS) allArrived();
      return new Promise(() => {});
    });
    const forwarded = Array.from({ length: MAX_RELAYED_MODERN_REQUESTS }, () =>
      b.modern.forward("a", request, quiet()).catch((error: Error) => error.message),
    );
    await expect(b.modern.forward("a", request, quiet())).rejects.toThrow(
      `this replica waits on ${MAX_RELAYED_MODERN_REQUESTS} relayed requests already`,
    );
    await full;
    await expect(c.modern.forward("a", request, quiet())).rejects.toThrow(
      `it serves ${MAX_RELAYED_MODERN_REQUESTS} relayed requests already`,
    );
    // Closing the waiting replica fails its requests (and the holder cancels them).
    await b.close();
    expect(new Set(await Promise.all(forwarded))).toEqual(new Set(["this replica is stopping"]));
  });

  it("cancels the request on the holder when the client goes away, and refuses an unknown profile", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const cancelled = new Promise<void>((resolve) => {
      a.modern.serve("", (_relayed, context) => {
        context.signal.addEventListener("abort", () => resolve());
        aborter.abort();
        return new Promise(() => {});
      });
    });
    const aborter = new AbortController();
    const forwarded = b.modern.forward("a", request, { signal: aborter.signal, notify: () => {} });
    await expect(forwarded).rejects.toThrow("the client went away");
    await cancelled;
    await expect(b.modern.forward("a", { ...request, profile: "ops" }, quiet())).rejects.toThrow(
      'it serves no modern requests on profile "ops"',
    );
  });
});

describe("the router's modern options on Redis", () => {
  it("give every replica the same request-state key of 32 bytes", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const [first, second] = await Promise.all([a.modernFrontOptions(), b.modernFrontOptions()]);
    expect(first.requestStateKey).toHaveLength(32);
    expect(Buffer.from(second.requestStateKey).equals(Buffer.from(first.requestStateKey))).toBe(
      true,
    );
    expect(first.cluster.replicaId).toBe("a");
  });

  it("count a caller's held calls on every replica together, each once, until released", async () => {
    const a = (await (await replica("a")).modernFrontOptions()).cluster.heldCallLedger;
    const b = (await (await replica("b")).modernFrontOptions()).cluster.heldCallLedger;
    expect(await a.hold("p\u0000alice", "k1", 60_000)).toBe(1);
    expect(await b.hold("p\u0000alice", "k2", 60_000)).toBe(2);
    expect(await b.hold("p\u0000alice", "k2", 60_000)).toBe(2);
    expect(await a.hold("p\u0000bob", "k3", 60_000)).toBe(1);
    a.release("p\u0000alice", "k1");
    expect(await b.hold("p\u0000alice", "k4", 60_000)).toBe(2);
  });

  it("tell a list change announced by every replica's copy once to each replica, and distinct ones each", async () => {
    const replicas = await Promise.all(["a", "b", "c"].map((id) => replica(id)));
    const relays = await Promise.all(
      replicas.map(async (cluster) => (await cluster.modernFrontOptions()).cluster.listChanges),
    );
    const heard = relays.map(() => [] as ListChange[]);
    const markers = relays.map(
      (relay, index) =>
        new Promise<void>((resolve) => {
          relay.subscribe((change) => {
            heard[index]?.push(change);
            if (change.digest === "marker") resolve();
          });
        }),
    );
    const same: ListChange = { backend: "github", list: "tools", digest: "0123456789abcdef" };
    await Promise.all(relays.map((relay) => relay.publish(same)));
    // No digest: nothing tells two announcements apart, so each is told.
    await relays[1]?.publish({ backend: "github", list: "prompts" });
    await relays[2]?.publish({ backend: "github", list: "tools", digest: "marker" });
    await Promise.all(markers);
    for (const changes of heard) {
      expect(changes).toEqual([
        same,
        { backend: "github", list: "prompts" },
        { backend: "github", list: "tools", digest: "marker" },
      ]);
    }
  });

  it("carry a listen stream's resource wants to the other replicas, acknowledged, and updates back", async () => {
    const [a, b] = await Promise.all(["a", "b"].map(async (id) => await replica(id)));
    const [onA, onB] = await Promise.all(
      [a, b].map(async (cluster) => (await cluster?.modernFrontOptions())?.cluster.resourceUpdates),
    );
    if (onA === undefined || onB === undefined) throw new Error("no relays");
    const wants: unknown[] = [];
    let release: () => void = () => {};
    const subscribedOnB = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => {};
    const reachedB = new Promise<void>((resolve) => {
      reached = resolve;
    });
    onB.subscribe({
      wanted: async (from, scope, uri, wanted) => {
        reached();
        await subscribedOnB;
        wants.push({ from, scope, uri, wanted });
      },
      updated: () => {},
    });
    const updates: unknown[] = [];
    const updated = new Promise<void>((resolve) => {
      onA.subscribe({
        wanted: async () => {},
        updated: (scope, uri) => {
          updates.push({ scope, uri });
          resolve();
        },
      });
    });
    let settled = false;
    const wanting = onA.want("\u0000alice", "test://note", true).then(() => {
      settled = true;
    });
    // Not acknowledged before replica b subscribed.
    await reachedB;
    expect(settled).toBe(false);
    release();
    await wanting;
    expect(wants).toEqual([{ from: "a", scope: "\u0000alice", uri: "test://note", wanted: true }]);
    expect(await onB.deliver("a", "\u0000alice", "test://note")).toBe(true);
    await updated;
    expect(updates).toEqual([{ scope: "\u0000alice", uri: "test://note" }]);
    expect(await onB.deliver("gone", "\u0000alice", "test://note")).toBe(false);
  });

  it("acknowledge a want after resourceWantTimeoutMs when a replica does not answer, with a warning", async () => {
    const warnings: string[] = [];
    const a = await replica("a", {
      resourceWantTimeoutMs: 30,
      onWarning: (message) => warnings.push(message),
    });
    const b = await replica("b");
    const onA = (await a.modernFrontOptions()).cluster.resourceUpdates;
    const onB = (await b.modernFrontOptions()).cluster.resourceUpdates;
    let reached: () => void = () => {};
    const reachedB = new Promise<void>((resolve) => {
      reached = resolve;
    });
    // Replica b never finishes subscribing.
    onB.subscribe({
      wanted: () => {
        reached();
        return new Promise(() => {});
      },
      updated: () => {},
    });
    await onA.want("\u0000alice", "test://slow", true);
    await reachedB;
    expect(warnings).toEqual([
      "not every replica subscribed test://slow within 30 ms; updates from those may be missed",
    ]);
  });

  it("subscribe a replica started later for the wants in force of every live replica, not its own old ones", async () => {
    const a = await replica("a");
    const onA = (await a.modernFrontOptions()).cluster.resourceUpdates;
    onA.subscribe({ wanted: async () => {}, updated: () => {} });
    await onA.want("\u0000alice", "test://kept", true);
    await onA.want("\u0000alice", "test://dropped", true);
    await onA.want("\u0000alice", "test://dropped", false);
    // A replica "gone" that left its wants behind (it never beat: not live).
    const gone = (await (await replica("gone")).modernFrontOptions()).cluster.resourceUpdates;
    gone.subscribe({ wanted: async () => {}, updated: () => {} });
    await gone.want("\u0000bob", "test://of-gone", true);
    await clusters.find((cluster) => cluster.replicaId === "gone")?.close();
    const late = (await (await replica("late")).modernFrontOptions()).cluster.resourceUpdates;
    const wants: unknown[] = [];
    let onWant: () => void = () => {};
    late.subscribe({
      wanted: async (from, scope, uri, wanted) => {
        wants.push({ from, scope, uri, wanted });
        onWant();
      },
      updated: () => {},
    });
    const heard = (uri: string) =>
      new Promise<void>((resolve) => {
        onWant = () => {
          if (wants.some((want) => (want as { uri: string }).uri === uri)) resolve();
        };
        onWant();
      });
    // Read from a's hash at start (every want found there is told at once), then a later want.
    await heard("test://kept");
    const marker = heard("test://marker");
    await onA.want("\u0000alice", "test://marker", true);
    await marker;
    expect(wants).toEqual([
      { from: "a", scope: "\u0000alice", uri: "test://kept", wanted: true },
      { from: "a", scope: "\u0000alice", uri: "test://marker", wanted: true },
    ]);
    // Replica a restarted under its id: its streams ended with it, a later replica subscribes none.
    await clusters.find((cluster) => cluster.replicaId === "a")?.close();
    const again = (await (await replica("a")).modernFrontOptions()).cluster.resourceUpdates;
    again.subscribe({ wanted: async () => {}, updated: () => {} });
    await again.want("\u0000carol", "test://after-restart", true);
    const wantsOfLater = await new Promise<unknown[]>((resolve) => {
      void replica("later").then(async (later) => {
        const wants: unknown[] = [];
        (await later.modernFrontOptions()).cluster.resourceUpdates.subscribe({
          wanted: async (from, scope, uri) => {
            wants.push({ from, scope, uri });
            resolve(wants);
          },
          updated: () => {},
        });
      });
    });
    expect(wantsOfLater).toEqual([
      { from: "a", scope: "\u0000carol", uri: "test://after-restart" },
    ]);
  });

  // Last: it restarts Redis.
  it("derive the request-state key from the cluster secret: never stored in Redis", async () => {
    const a = await replica("a");
    const key = Buffer.from((await a.modernFrontOptions()).requestStateKey);
    const other = await replica("other", { secret: randomBytes(32).toString("base64") });
    expect(Buffer.from((await other.modernFrontOptions()).requestStateKey).equals(key)).toBe(false);
    const inspector = await connectRedis({ url: redis.url });
    try {
      expect(await inspector.keys("*request-state*")).toEqual([]);
    } finally {
      inspector.disconnect();
    }
    // A replica started later (Redis restarted empty meanwhile, say) derives the same key.
    await redis.restart();
    const later = await replica("later");
    expect(Buffer.from((await later.modernFrontOptions()).requestStateKey).equals(key)).toBe(true);
  });
});
