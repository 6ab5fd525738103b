import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectSdk, sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface RpcLine {
  readonly kind: string;
  readonly method: string;
  readonly status: unknown;
  readonly durationMs: number;
  readonly tool?: string;
}

const parse = (line: string) => JSON.parse(line) as RpcLine;
const isCallLine = (line: string) => {
  const entry = parse(line);
  return entry.kind === "rpc" && entry.method === "tools/call";
};

/**
 * Calls `long_task` (one step of 60 s), cancels it once the backend reported it started (its first
 * progress), and resolves with the milliseconds from the call to the cancel.
 */
async function callThenCancel(client: Client): Promise<number> {
  const controller = new AbortController();
  const startedAt = performance.now();
  let cancelledAfter = 0;
  const call = client.callTool(
    { name: "sample__long_task", arguments: { steps: 1, stepMs: 60_000 } },
    undefined,
    {
      signal: controller.signal,
      onprogress: () => {
        cancelledAfter = performance.now() - startedAt;
        controller.abort(new Error("the caller gave up"));
      },
    },
  );
  await expect(call).rejects.toThrow("the caller gave up");
  return cancelledAfter;
}

/** Waits for the cancelled call's line, stops the proxy, and checks it was the call's only line. */
async function expectOneCancelledLine(proxy: TestProxy, cancelledAfter: number): Promise<void> {
  const line = parse(await proxy.waitForLog(isCallLine));
  expect(line).toMatchObject({
    kind: "rpc",
    method: "tools/call",
    tool: "sample__long_task",
    status: "cancelled",
  });
  expect(line.durationMs).toBeGreaterThanOrEqual(0);
  // The time until the cancel, not until the session closed (the step takes 60 s).
  expect(line.durationMs).toBeLessThan(cancelledAfter + 5_000);
  await proxy.stop();
  expect(proxy.logs.filter(isCallLine)).toHaveLength(1);
}

describe("a call the client cancels", () => {
  it("is logged once as cancelled over Streamable HTTP", async () => {
    const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() } });
    cleanups.push(() => proxy.stop());
    const connected = await connectSdk(proxy.url);
    cleanups.push(() => connected.client.close());
    const cancelledAfter = await callThenCancel(connected.client);
    await expectOneCancelledLine(proxy, cancelledAfter);
  }, 30_000);

  it("is logged once as cancelled over legacy SSE, not again when the session closes", async () => {
    const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() } });
    cleanups.push(() => proxy.stop());
    const client = new Client({ name: "proxy-test", version: "1.0.0" }, { capabilities: {} });
    await client.connect(new SSEClientTransport(proxy.at("/sse")));
    cleanups.push(() => client.close());
    const cancelledAfter = await callThenCancel(client);
    await client.close();
    await expectOneCancelledLine(proxy, cancelledAfter);
  }, 30_000);

  it("is logged once as cancelled when a modern (2026-07-28) client closes the call's stream", async () => {
    const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() } });
    cleanups.push(() => proxy.stop());
    const controller = new AbortController();
    const startedAt = performance.now();
    const response = await fetch(proxy.url, {
      method: "POST",
      signal: controller.signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "sample__long_task",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "sample__long_task",
          arguments: { steps: 1, stepMs: 60_000 },
          _meta: {
            progressToken: "p1",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    // The first progress report streams: the call runs at the backend; close its stream now.
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const cancelledAfter = performance.now() - startedAt;
    controller.abort();
    await reader.cancel().catch(() => {});
    await expectOneCancelledLine(proxy, cancelledAfter);
  }, 30_000);
});
