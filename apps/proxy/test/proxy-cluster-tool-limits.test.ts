import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type RedisServerProcess, startRedisServer } from "@patchbay/cluster-redis/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeSdk, connectSdk, startTestProxy, type TestProxy } from "./proxy-helpers.js";

// Two replicas (in this process) on one real Redis: limits.tools' perMinute holds across them.
const governanceBackend = join(import.meta.dirname, "fixtures", "governance-backend.mjs");
const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789abcd";

let redis: RedisServerProcess;
const replicas: TestProxy[] = [];
const sessions: Awaited<ReturnType<typeof connectSdk>>[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  const secret = randomBytes(32).toString("base64");
  const config = (replicaId: string) => ({
    auth: {
      tokens: [
        { name: "alice", token: ALICE },
        { name: "bob", token: BOB },
      ],
    },
    limits: { tools: { gov__count: { perMinute: 2 } } },
    mcpServers: { gov: { command: process.execPath, args: [governanceBackend] } },
    cluster: { redis: redis.url, replicaId, secret },
  });
  replicas.push(...(await Promise.all(["a", "b"].map((id) => startTestProxy(config(id))))));
}, 20_000);

afterAll(async () => {
  await Promise.all(sessions.map(closeSdk));
  await Promise.all(replicas.map((replica) => replica.stop()));
  await redis?.stop();
}, 20_000);

async function client(replica: TestProxy, token: string): Promise<Client> {
  const connected = await connectSdk(replica.url, { token });
  sessions.push(connected);
  return connected.client;
}

it("counts a tool's perMinute in Redis: the third call, on the other replica, is limited", async () => {
  const [a, b] = replicas as [TestProxy, TestProxy];
  const [aliceOnA, aliceOnB, bobOnB] = await Promise.all([
    client(a, ALICE),
    client(b, ALICE),
    client(b, BOB),
  ]);
  const count = (on: Client) => on.callTool({ name: "gov__count", arguments: {} });
  expect((await count(aliceOnA)).isError).toBeUndefined();
  expect((await count(aliceOnA)).isError).toBeUndefined();
  // Replica b has served alice nothing yet: only a shared count refuses this call.
  const limited = await count(aliceOnB);
  expect(limited).toMatchObject({ isError: true, _meta: { "io.patchbay/retryAfter": 30 } });
  expect(JSON.stringify(limited.content)).toContain("too many calls in the last minute");
  // Counted per principal and tool: bob's calls on b are his own.
  expect((await count(bobOnB)).isError).toBeUndefined();
}, 15_000);
