import { afterAll, beforeAll, expect, it } from "vitest";
import { readSseEndpoint, sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

// Each case comes from its own address (X-Forwarded-For, trusted here), so each has its own bucket
// of 10 requests a minute.
let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry() },
    limits: { requestsPerMinute: 10 },
    http: { trustProxy: true },
  });
});
afterAll(() => proxy?.stop());

const listTools = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const batchOf = (size: number) => Array.from({ length: size }, (_, index) => listTools(index + 1));

async function post(
  path: string,
  address: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(proxy.at(path), {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

it("a plain JSON-RPC batch costs one unit per request", async () => {
  const refused = await post("/mcp", "10.0.0.1", batchOf(11));
  expect(refused.status).toBe(429);
  expect(refused.text).toContain("rate limit of 10 requests per minute exceeded");
  expect(refused.headers.get("retry-after")).not.toBeNull();
  expect((await post("/mcp", "10.0.0.2", batchOf(10))).status).toBe(200);
});

it("a Streamable HTTP batch costs one unit per request", async () => {
  const accept = { accept: "application/json, text/event-stream" };
  const opened = await post(
    "/mcp",
    "10.0.0.3",
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        // 2025-03-26 is the last revision with batches.
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "batch-cost", version: "1.0.0" },
      },
    },
    accept,
  );
  expect(opened.status).toBe(200);
  const session = {
    ...accept,
    "mcp-session-id": opened.headers.get("mcp-session-id") as string,
    "mcp-protocol-version": "2025-03-26",
  };
  // 1 unit spent on initialize: 9 left, and a batch of 10 needs 10.
  expect((await post("/mcp", "10.0.0.3", batchOf(10), session)).status).toBe(429);
  expect((await post("/mcp", "10.0.0.4", batchOf(10), session)).status).toBe(200);
});

it("a legacy SSE batch costs one unit per request", async () => {
  const controller = new AbortController();
  const stream = await fetch(proxy.at("/sse"), {
    headers: { accept: "text/event-stream", "x-forwarded-for": "10.0.0.5" },
    signal: controller.signal,
  });
  try {
    const { endpoint } = await readSseEndpoint(stream);
    // 1 unit spent on the stream: 9 left, and a batch of 10 needs 10.
    expect((await post(endpoint, "10.0.0.5", batchOf(10))).status).toBe(429);
    expect((await post(endpoint, "10.0.0.6", batchOf(10))).status).toBe(202);
  } finally {
    controller.abort();
  }
});
