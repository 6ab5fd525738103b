import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpGateway } from "./http-gateway.js";
import { SHARED_STORE_UNAVAILABLE_CODE } from "./shared-session-transport.js";
import {
  createInMemoryClusterStore,
  type InMemoryClusterStore,
} from "./test-support/in-memory-cluster.js";
import { createInMemoryRouter } from "./test-support/in-memory-router.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TOKENS = [
  { name: "alice", token: "alice-token-0123456789" },
  { name: "bob", token: "bob-token-0123456789ab" },
];

/** A gateway replica on its own router, sharing `store` with the others. */
async function replica(store: InMemoryClusterStore, replicaId: string): Promise<URL> {
  const { router } = await createInMemoryRouter();
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

describe("createHttpGateway({ cluster })", () => {
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

  it("answers initialize with -32030 and keeps no session when its record cannot be saved", async () => {
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
});
