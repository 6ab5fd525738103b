import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Frame } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import type { AuditDecision, AuditLog } from "@patchbay/telemetry";
import { createNodeWebSocketClientTransport } from "@patchbay/transport-ws";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHttpGateway, type HttpGateway } from "../http-gateway.js";
import { createInMemoryRouter } from "../test-support/in-memory-router.js";

// Frames refused after the upgrade never reach the router, so the gateway audits them itself.
const TOKEN = "alice-token-0123456789";
const decisions: AuditDecision[] = [];
const audit: AuditLog = {
  policy: "names",
  now: () => 0,
  record: (decision) => decisions.push(decision),
  failed: 0,
  flush: async () => {},
};

let gateway: HttpGateway;
let server: Server;
let stopRouter: () => Promise<void>;
let url: URL;

beforeAll(async () => {
  const { router } = await createInMemoryRouter();
  stopRouter = () => router.close();
  gateway = createHttpGateway({
    router,
    clock: createManualClock(1_000_000),
    tokens: [{ name: "alice", token: TOKEN }],
    // The upgrade spends the one unit a minute of the token's and the address's buckets.
    limits: { maxBatchSize: 2, requestsPerMinute: 1 },
    keepAliveIntervalMs: 0,
    audit,
  });
  server = createServer((request, response) => void gateway(request, response));
  server.on(
    "upgrade",
    (request, socket, head) => void gateway.handleUpgrade(request, socket, head),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`);
});

afterAll(async () => {
  await gateway.close({ drainTimeoutMs: 0 });
  await stopRouter();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it("audits a batch over maxBatchSize and a request over the rate limit, refused after the upgrade", async () => {
  const client = createNodeWebSocketClientTransport({
    url,
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const answers: Frame[] = [];
  const waiters: (() => void)[] = [];
  client.onFrame((frame) => {
    answers.push(frame);
    waiters.shift()?.();
  });
  const answered = () => new Promise<void>((resolve) => waiters.push(resolve));
  await client.start();
  try {
    const ping = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "ping" });
    let next = answered();
    await client.send([ping(1), ping(2), ping(3)]);
    await next;
    next = answered();
    await client.send({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "echo", arguments: { query: "secret value" } },
    });
    await next;
    expect(answers).toMatchObject([
      { id: null, error: { code: -32600 } },
      { id: 4, error: { code: -32015 } },
    ]);
    expect(decisions).toEqual([
      {
        principal: "alice",
        method: "(batch)",
        outcome: "denied",
        reason: "batch_too_large",
        durationMs: 0,
      },
      {
        principal: "alice",
        method: "tools/call",
        tool: "echo",
        arguments: { query: "secret value" },
        outcome: "denied",
        reason: "rate_limited",
        durationMs: 0,
      },
    ]);
  } finally {
    await client.close();
  }
});
