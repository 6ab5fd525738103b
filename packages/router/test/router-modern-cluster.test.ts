import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayErrorCode } from "../src/errors/gateway-error-code.js";
import type {
  HeldCallLedger,
  ListChangeNotice,
  ListChangeRelay,
  ResourceUpdateListener,
  ResourceUpdateRelay,
} from "../src/modern/modern-cluster.js";
import type { ModernEndpoint } from "../src/modern/modern-endpoint.js";
import { createHarness, type Harness } from "./harness.js";

// Two routers standing for two replicas of one gateway: same request-state key, a ledger and a
// list-change relay shared in memory (the proxy's are on Redis, see @patchbay/cluster-redis).
let harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.map((harness) => harness.close()));
  harnesses = [];
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};
const KEY = new Uint8Array(32).fill(7);
const config = { mcpServers: { asker: { command: "x", namespace: "" } } };

function defineAsker(server: Server): void {
  server.registerTool("greet", {}, async (_args, context) => {
    const answer = await context.elicit({
      mode: "form",
      message: "name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return { content: [{ type: "text", text: `Hello, ${String(answer.content?.name)}!` }] };
  });
  server.registerResource("note", "test://note", {}, () => ({
    contents: [{ uri: "test://note", text: "a note" }],
  }));
}

function memoryLedger(): HeldCallLedger & { readonly sets: Map<string, Set<string>> } {
  const sets = new Map<string, Set<string>>();
  return {
    sets,
    async hold(scope, key) {
      const set = sets.get(scope) ?? new Set<string>();
      sets.set(scope, set.add(key));
      return set.size;
    },
    release(scope, key) {
      sets.get(scope)?.delete(key);
    },
  };
}

function memoryRelay(): ListChangeRelay & { readonly published: ListChangeNotice[] } {
  const listeners = new Set<(change: ListChangeNotice) => void>();
  const published: ListChangeNotice[] = [];
  return {
    published,
    publish(change) {
      published.push(change);
      for (const listener of listeners) listener(change);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Resource-update relays of replicas, in memory: `relayOf(replicaId)`. */
function memoryUpdates(): (replicaId: string) => ResourceUpdateRelay {
  const members = new Map<string, ResourceUpdateListener>();
  return (me) => ({
    async want(scope, uri, wanted) {
      const others = [...members].filter(([id]) => id !== me);
      await Promise.all(others.map(([, listener]) => listener.wanted(me, scope, uri, wanted)));
    },
    async deliver(replicaId, scope, uri) {
      members.get(replicaId)?.updated(scope, uri);
      return members.has(replicaId);
    },
    subscribe(listener) {
      members.set(me, listener);
      return () => members.delete(me);
    },
  });
}

async function replicas(
  ledger: HeldCallLedger | undefined,
  relay?: ListChangeRelay,
  maxHeldCalls = 64,
  updatesOf?: (replicaId: string) => ResourceUpdateRelay,
  file: unknown = config,
) {
  for (const replicaId of ["a", "b"]) {
    const cluster = {
      replicaId,
      ...(ledger === undefined ? {} : { heldCallLedger: ledger }),
      ...(relay === undefined ? {} : { listChanges: relay }),
      ...(updatesOf === undefined ? {} : { resourceUpdates: updatesOf(replicaId) }),
    };
    harnesses.push(
      await createHarness(
        file,
        { asker: defineAsker },
        { modern: { requestStateKey: KEY, maxHeldCalls, cluster } },
      ),
    );
  }
  return harnesses.map((harness) => harness.router.modern()) as [ModernEndpoint, ModernEndpoint];
}

let nextId = 0;
function request(method: string, params: Record<string, unknown>): JSONRPCRequest {
  nextId += 1;
  return { jsonrpc: "2.0", id: nextId, method, params: { ...params, _meta: META } };
}

async function call(endpoint: ModernEndpoint, message: JSONRPCRequest, caller = "alice") {
  const context = { signal: new AbortController().signal, notify: () => {}, caller };
  return (await endpoint.handle(message, context)) as JSONRPCResponse & {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  };
}

describe("the modern front of replicas sharing a request-state key", () => {
  it("names the holding replica in the sealed state, so another replica knows whom to hand a retry", async () => {
    const [a, b] = await replicas(undefined);
    const first = await call(a, request("tools/call", { name: "greet" }));
    expect(first.result?.resultType).toBe("input_required");
    const inputKey = Object.keys(first.result?.inputRequests as object)[0] as string;
    const retry = request("tools/call", {
      name: "greet",
      requestState: first.result?.requestState,
      inputResponses: { [inputKey]: { action: "accept", content: { name: "Ada" } } },
    });
    expect(await b.heldElsewhere(retry, "alice")).toBe("a");
    // The holder serves it; a state for another caller, or tampered, is served (refused) here.
    expect(await a.heldElsewhere(retry, "alice")).toBeUndefined();
    expect(await b.heldElsewhere(retry, "bob")).toBeUndefined();
    const tampered = { ...retry, params: { ...retry.params, requestState: "x" } };
    expect(await b.heldElsewhere(tampered, "alice")).toBeUndefined();
    expect((await call(b, tampered)).error?.code).toBe(-32602);
    // Without a relay, the replica that does not hold the call says it has ended.
    const elsewhere = await call(b, { ...retry, id: "again" });
    expect(elsewhere.error?.code).toBe(GatewayErrorCode.HeldCallEnded);
    const done = await call(a, retry);
    expect(done.result?.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
  });

  it("counts a caller's held calls on every replica together in the ledger (maxHeldCalls)", async () => {
    const ledger = memoryLedger();
    const [a, b] = await replicas(ledger, undefined, 2);
    const first = await call(a, request("tools/call", { name: "greet" }));
    const second = await call(b, request("tools/call", { name: "greet" }));
    expect([first.result?.resultType, second.result?.resultType]).toEqual([
      "input_required",
      "input_required",
    ]);
    const third = await call(a, request("tools/call", { name: "greet" }));
    expect(third.error).toMatchObject({ code: GatewayErrorCode.TooManyHeldCalls });
    expect(ledger.sets.get("\u0000alice")?.size).toBe(2);
    // Another caller has its own count; a call answered leaves the ledger.
    expect((await call(b, request("tools/call", { name: "greet" }), "bob")).result).toMatchObject({
      resultType: "input_required",
    });
    const inputKey = Object.keys(second.result?.inputRequests as object)[0] as string;
    const answered = await call(
      b,
      request("tools/call", {
        name: "greet",
        requestState: second.result?.requestState,
        inputResponses: { [inputKey]: { action: "accept", content: { name: "Bo" } } },
      }),
    );
    expect(answered.result?.content).toEqual([{ type: "text", text: "Hello, Bo!" }]);
    expect(ledger.sets.get("\u0000alice")?.size).toBe(1);
    const fourth = await call(a, request("tools/call", { name: "greet" }));
    expect(fourth.result?.resultType).toBe("input_required");
  });

  it("tells a shared backend's list change through the relay, with a digest, to listeners of every replica", async () => {
    const relay = memoryRelay();
    const [a, b] = await replicas(undefined, relay);
    // A front on replica a, which computes the digest of the backend's new list.
    await call(a, request("tools/list", {}));
    const heard: JSONRPCNotification[] = [];
    const aborter = new AbortController();
    const acknowledged = new Promise<void>((resolve) => {
      void b.handle(
        request("subscriptions/listen", { notifications: { toolsListChanged: true } }),
        {
          signal: aborter.signal,
          caller: "bob",
          notify(method, params) {
            if (method === "notifications/subscriptions/acknowledged") resolve();
            else heard.push({ jsonrpc: "2.0", method, params });
          },
        },
      );
    });
    await acknowledged;
    const changed = new Promise<void>((resolve) => {
      const unsubscribe = relay.subscribe(() => {
        unsubscribe();
        resolve();
      });
    });
    const backend = harnesses[0]?.servers.get("asker")?.[0] as Server;
    backend.registerTool("added", {}, () => ({ content: [] }));
    await changed;
    aborter.abort();
    expect(relay.published).toEqual([
      { backend: "asker", list: "tools", digest: expect.stringMatching(/^[0-9a-f]{16}$/) },
    ]);
    expect(heard.map((note) => note.method)).toEqual(["notifications/tools/list_changed"]);
  });

  it("tells a listener on the replica where the list changed once, not again from its legacy session", async () => {
    const relay = memoryRelay();
    const [a] = await replicas(undefined, relay);
    const heard: string[] = [];
    const waiters = new Map<string, () => void>();
    const next = (method: string) =>
      new Promise<void>((resolve) => {
        waiters.set(method, resolve);
      });
    const aborter = new AbortController();
    const acknowledged = next("notifications/subscriptions/acknowledged");
    void a.handle(
      request("subscriptions/listen", {
        notifications: { toolsListChanged: true, resourcesListChanged: true },
      }),
      {
        signal: aborter.signal,
        caller: "alice",
        notify(method) {
          heard.push(method);
          waiters.get(method)?.();
        },
      },
    );
    await acknowledged;
    const backend = harnesses[0]?.servers.get("asker")?.[0] as Server;
    const tools = next("notifications/tools/list_changed");
    backend.registerTool("added", {}, () => ({ content: [] }));
    await tools;
    // A later change of another list comes after any echo of the first.
    const resources = next("notifications/resources/list_changed");
    backend.registerResource("more", "test://more", {}, () => ({ contents: [] }));
    await resources;
    aborter.abort();
    expect(relay.published.map((change) => change.list)).toEqual(["tools", "resources"]);
    expect(heard).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
    ]);
  });

  it("tells a per-session backend's list change to the listeners of that caller on every replica only", async () => {
    const relay = memoryRelay();
    const perSession = {
      mcpServers: { asker: { command: "x", namespace: "", isolation: "per-session" } },
    };
    const [a, b] = await replicas(undefined, relay, 64, undefined, perSession);
    // Alice's and then Bob's front on replica a, each with its own copy of the backend.
    await call(a, request("tools/list", {}), "alice");
    await call(a, request("tools/list", {}), "bob");
    // (The harness's own legacy client has the first copy.)
    const [aliceCopy, bobCopy] = (harnesses[0]?.servers.get("asker") ?? []).slice(-2);
    const listenOnB = async (caller: string) => {
      const heard: string[] = [];
      let onHeard: () => void = () => {};
      const aborter = new AbortController();
      await new Promise<void>((resolve) => {
        void b.handle(
          request("subscriptions/listen", { notifications: { toolsListChanged: true } }),
          {
            signal: aborter.signal,
            caller,
            notify(method) {
              if (method === "notifications/subscriptions/acknowledged") return resolve();
              heard.push(method);
              onHeard();
            },
          },
        );
      });
      const next = () =>
        new Promise<void>((resolve) => {
          onHeard = resolve;
        });
      return { heard, next, stop: () => aborter.abort() };
    };
    const alice = await listenOnB("alice");
    const bob = await listenOnB("bob");
    const aliceHeard = alice.next();
    aliceCopy?.registerTool("added", {}, () => ({ content: [] }));
    await aliceHeard;
    const bobHeard = bob.next();
    bobCopy?.registerTool("added", {}, () => ({ content: [] }));
    await bobHeard;
    alice.stop();
    bob.stop();
    expect(relay.published).toEqual([
      expect.objectContaining({ backend: "asker", list: "tools", scope: "\u0000alice" }),
      expect.objectContaining({ backend: "asker", list: "tools", scope: "\u0000bob" }),
    ]);
    expect(alice.heard).toEqual(["notifications/tools/list_changed"]);
    expect(bob.heard).toEqual(["notifications/tools/list_changed"]);
  });

  it("subscribes every replica's backends for a listen stream's URIs and brings their updates to it", async () => {
    const [, b] = await replicas(undefined, undefined, 64, memoryUpdates());
    const heard: JSONRPCNotification[] = [];
    let onHeard: () => void = () => {};
    const aborter = new AbortController();
    let agreed: unknown;
    const acknowledged = new Promise<void>((resolve) => {
      void b.handle(
        request("subscriptions/listen", {
          notifications: { resourceSubscriptions: ["test://note"] },
        }),
        {
          signal: aborter.signal,
          caller: "bob",
          notify(method, params) {
            if (method === "notifications/subscriptions/acknowledged") {
              agreed = params.notifications;
              resolve();
            } else {
              heard.push({ jsonrpc: "2.0", method, params });
              onHeard();
            }
          },
        },
      );
    });
    await acknowledged;
    expect(agreed).toEqual({ resourceSubscriptions: ["test://note"] });
    // Replica a's copy of the backend was subscribed before the stream was acknowledged.
    const updated = new Promise<void>((resolve) => {
      onHeard = resolve;
    });
    const backendOnA = harnesses[0]?.servers.get("asker")?.[0] as Server;
    await backendOnA.notifyResourceUpdated("test://note");
    await updated;
    aborter.abort();
    expect(heard).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "test://note", _meta: expect.any(Object) },
      },
    ]);
  });
});
