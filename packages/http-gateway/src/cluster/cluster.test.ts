import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Router } from "@patchbay/router";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpGateway } from "../http-gateway.js";
import {
  createInMemoryClusterStore,
  type InMemoryClusterStore,
} from "../test-support/in-memory-cluster.js";
import { createInMemoryRouter } from "../test-support/in-memory-router.js";
import { SHARED_STORE_UNAVAILABLE_CODE } from "./shared-session-transport.js";
import {
  MAX_SHARED_RESOURCE_SUBSCRIPTIONS,
  MAX_SHARED_RESOURCE_URI_LENGTH,
} from "./shared-subscriptions.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TOKENS = [
  { name: "alice", token: "alice-token-0123456789" },
  { name: "bob", token: "bob-token-0123456789ab" },
];

/** A gateway replica on its own router (seen through `watch`, if given), sharing `store`. */
async function replica(
  store: InMemoryClusterStore,
  replicaId: string,
  watch: (router: Router) => void = () => {},
): Promise<URL> {
  const { router } = await createInMemoryRouter();
  watch(router);
  const gateway = createHttpGateway({
    router,
    tokens: TOKENS,
    keepAliveIntervalMs: 0,
    cluster: store.replica(replicaId),
  });
  const server: Server = createServer((request, response) => void gateway(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await gateway.close({ drainTimeoutMs: 0 });
    await router.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

function post(url: URL, token: string, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      "mcp-protocol-version": "2025-06-18",
      ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    },
    body: JSON.stringify(body),
  });
}

const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};
const echo = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "echo", arguments: { n: 1 } },
};

/** Listens to a router so that the auth info of each `initialize` its sessions accept lands in `seen`. */
function recordInitializeAuth(seen: unknown[]) {
  return (router: Router): void => {
    router.onSession((event) => {
      if (event.type === "initialize") seen.push(event.info.extra?.authInfo);
    });
  };
}

describe("createHttpGateway({ cluster })", () => {
  it("replays an adopted session's initialize with the owning token's name, never the token", async () => {
    const store = createInMemoryClusterStore();
    const seenOnA: unknown[] = [];
    const seenOnB: unknown[] = [];
    const a = await replica(store, "a", recordInitializeAuth(seenOnA));
    const b = await replica(store, "b", recordInitializeAuth(seenOnB));
    const opened = await post(a, "alice-token-0123456789", initialize);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    expect(seenOnA).toEqual([expect.objectContaining({ name: "alice" })]);
    const adopted = await post(b, "alice-token-0123456789", echo, sessionId);
    expect(adopted.status).toBe(200);
    await adopted.text();
    // What the dashboard's session list reads: the name, as on the replica that created it.
    expect(seenOnB).toEqual([{ name: "alice" }]);
    expect(JSON.stringify(seenOnB)).not.toContain("alice-token");
  });

  it("serves a session created on one replica from another, for its own token only", async () => {
    const store = createInMemoryClusterStore();
    const a = await replica(store, "a");
    const b = await replica(store, "b");
    const opened = await post(a, "alice-token-0123456789", initialize);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    expect(store.records.get(sessionId)).toMatchObject({
      owner: "alice",
      profile: "",
      protocolVersion: "2025-06-18",
    });
    // Another token names the session on a replica that does not hold it: it does not exist.
    expect((await post(b, "bob-token-0123456789ab", echo, sessionId)).status).toBe(404);
    const answer = await post(b, "alice-token-0123456789", echo, sessionId);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('\\"n\\":1');
    // Now that b holds it, the other token still gets 404 there.
    expect((await post(b, "bob-token-0123456789ab", echo, sessionId)).status).toBe(404);
  });

  it("answers initialize with -32016 and keeps no session when its record cannot be saved", async () => {
    const store = createInMemoryClusterStore();
    const a = await replica(store, "a");
    store.failNextSave = true;
    const opened = await post(a, "alice-token-0123456789", initialize);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    expect(await opened.text()).toContain(`"code":${SHARED_STORE_UNAVAILABLE_CODE}`);
    expect((await post(a, "alice-token-0123456789", echo, sessionId)).status).toBe(404);
  });

  it("refuses new sessions and adoptions with 503 while the store is down, and says so in /readyz", async () => {
    const store = createInMemoryClusterStore();
    const a = await replica(store, "a");
    const b = await replica(store, "b");
    const opened = await post(a, "alice-token-0123456789", initialize);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    store.up = false;
    const fresh = await post(a, "alice-token-0123456789", initialize);
    expect(fresh.status).toBe(503);
    expect(fresh.headers.get("retry-after")).toBe("1");
    expect((await post(b, "alice-token-0123456789", echo, sessionId)).status).toBe(503);
    // The replica that holds the session goes on serving it.
    expect((await post(a, "alice-token-0123456789", echo, sessionId)).status).toBe(200);
    const ready = await fetch(new URL("/readyz", a));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      ready: false,
      cluster: { replicaId: "a", store: "down" },
    });
  });

  it("keeps a session's resource subscriptions in its record, at most 100, and refuses more with -32602", async () => {
    const store = createInMemoryClusterStore();
    const a = await replica(store, "a");
    const token = "alice-token-0123456789";
    const opened = await post(a, token, initialize);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    const change = async (id: number, method: string, uri: string) => {
      const params = { uri };
      const answer = await post(a, token, { jsonrpc: "2.0", id, method, params }, sessionId);
      const text = await answer.text();
      const data = text.startsWith("{") ? text : text.split("data: ").at(-1);
      return JSON.parse(data ?? "{}") as { result?: unknown; error?: { code: number } };
    };
    for (let index = 0; index < MAX_SHARED_RESOURCE_SUBSCRIPTIONS; index++) {
      expect(await change(10 + index, "resources/subscribe", `memo://${index}`)).toMatchObject({
        result: {},
      });
    }
    expect(store.records.get(sessionId)?.resourceSubscriptions).toHaveLength(
      MAX_SHARED_RESOURCE_SUBSCRIPTIONS,
    );
    const over = await change(500, "resources/subscribe", "memo://one-too-many");
    expect(over.error).toMatchObject({
      code: -32602,
      message: `this session subscribes to ${MAX_SHARED_RESOURCE_SUBSCRIPTIONS} resources already, the most it may`,
    });
    // One already held may be subscribed again; one unsubscribed leaves room for another.
    expect((await change(501, "resources/subscribe", "memo://0")).result).toEqual({});
    expect((await change(502, "resources/unsubscribe", "memo://0")).result).toEqual({});
    expect((await change(503, "resources/subscribe", "memo://one-more")).result).toEqual({});
    const recorded = store.records.get(sessionId)?.resourceSubscriptions;
    expect(recorded).toContain("memo://one-more");
    expect(recorded).not.toContain("memo://0");
    const long = `memo://${"x".repeat(MAX_SHARED_RESOURCE_URI_LENGTH)}`;
    expect((await change(504, "resources/unsubscribe", "memo://1")).result).toEqual({});
    expect((await change(505, "resources/subscribe", long)).error).toMatchObject({ code: -32602 });
  });
});
