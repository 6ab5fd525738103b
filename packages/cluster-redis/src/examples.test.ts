import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { serveReplica } from "../examples/serve-replica.js";
import { type RedisServerProcess, startRedisServer } from "./testing/redis-server.js";

let redis: RedisServerProcess;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis.stop());

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });

it("the README example: a session opened on one replica is served by another", async () => {
  const secret = randomBytes(32).toString("base64");
  const replicas = await Promise.all([
    serveReplica(redis.url, "a", secret),
    serveReplica(redis.url, "b", secret),
  ]);
  try {
    const [a, b] = await Promise.all(
      replicas.map(async ({ server }) => {
        if (!server.listening) await once(server, "listening");
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      }),
    );
    const opened = await post(a as string, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    });
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    const notified = await post(
      b as string,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      headers,
    );
    expect(notified.status).toBe(202);
    const called = await post(
      b as string,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "notes__read_note" } },
      headers,
    );
    expect(await called.text()).toContain('"text":"hi"');
  } finally {
    for (const { server, cluster } of replicas) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await cluster.close();
    }
  }
});
