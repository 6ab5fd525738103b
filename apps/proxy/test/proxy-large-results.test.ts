import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { closeSdk, connectSdk, sampleEntry, startCli, startTestProxy } from "./proxy-helpers.js";

const MB = 1_000_000;
const pattern = (bytes: number) => "0123456789abcdef".repeat(Math.ceil(bytes / 16)).slice(0, bytes);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  expect(content).toHaveLength(1);
  return content[0]?.text ?? "";
}

describe("limits.maxResponseBytes", () => {
  it("answers a call whose response would pass it with -32012 naming the limit, and serves on", async () => {
    const proxy = await startTestProxy({
      mcpServers: { sample: sampleEntry() },
      limits: { maxResponseBytes: 2 * MB },
    });
    cleanups.push(() => proxy.stop());
    const connected = await connectSdk(proxy.url);
    cleanups.push(() => closeSdk(connected));
    const call = (bytes: number) =>
      connected.client.callTool({ name: "sample__large_result", arguments: { bytes } });
    expect(textOf(await call(MB)) === pattern(MB)).toBe(true);
    const error = await call(3 * MB).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32012);
    expect((error as McpError).message).toContain(
      "the answer to this POST would exceed the limit of 2000000 bytes (maxResponseBytes)",
    );
    expect(textOf(await call(10)) === pattern(10)).toBe(true);
  });

  it("refuses a value that is not a positive whole number in the config", async () => {
    const started = startTestProxy({
      mcpServers: { sample: sampleEntry() },
      limits: { maxResponseBytes: -1 },
    });
    await expect(started).rejects.toThrow(/maxResponseBytes/);
  });
});

describe("a 50 MB result with the default limits", () => {
  it("passes through the proxy, as it does through the stdio gateway", async () => {
    const proxy = await startTestProxy({
      mcpServers: { sample: sampleEntry({ timeoutMs: 120_000 }) },
    });
    cleanups.push(() => proxy.stop());
    const connected = await connectSdk(proxy.url);
    cleanups.push(() => closeSdk(connected));
    const result = await connected.client.callTool(
      { name: "sample__large_result", arguments: { bytes: 50 * MB } },
      undefined,
      { timeout: 120_000 },
    );
    expect(textOf(result) === pattern(50 * MB)).toBe(true);
  }, 120_000);
});

describe("a 50 MB result through a real proxy process", () => {
  it("arrives whole as one JSON answer with limits.maxResponseBytes raised", async () => {
    const url = await startCli(cleanups, {
      mcpServers: { sample: sampleEntry({ timeoutMs: 120_000 }) },
      limits: { maxResponseBytes: 64 * 1024 * 1024 },
      // The answer's format then depends on its first frame only: a host slow enough to take 15 s
      // (the default) over 50 MB would otherwise get an SSE answer, as it should.
      http: { keepAliveIntervalMs: 0 },
    });
    const connected = await connectSdk(url);
    cleanups.push(() => closeSdk(connected));
    const sessionId = connected.transport.sessionId as string;
    // Read with fetch to see the answer's format; the SDK client reads the same answer below.
    const answer = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "sample__large_result", arguments: { bytes: 50 * MB } },
      }),
    });
    expect(answer.headers.get("content-type")).toBe("application/json");
    const body = (await answer.json()) as { id: number; result: unknown };
    expect(body.id).toBe(1);
    expect(textOf(body.result) === pattern(50 * MB)).toBe(true);
    const result = await connected.client.callTool(
      { name: "sample__large_result", arguments: { bytes: 50 * MB } },
      undefined,
      { timeout: 120_000 },
    );
    expect(textOf(result) === pattern(50 * MB)).toBe(true);
  }, 120_000);
});

describe("http.keepAliveIntervalMs", () => {
  it("turns a POST still unanswered after it into an SSE answer with keep-alive comments", async () => {
    const proxy = await startTestProxy({
      mcpServers: { sample: sampleEntry() },
      http: { keepAliveIntervalMs: 50 },
    });
    cleanups.push(() => proxy.stop());
    const connected = await connectSdk(proxy.url);
    cleanups.push(() => closeSdk(connected));
    const abort = new AbortController();
    cleanups.push(() => abort.abort());
    // Without the option the headers would wait 15 s (the default), past this test's deadline.
    const answer = await fetch(proxy.url, {
      method: "POST",
      signal: abort.signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": connected.transport.sessionId as string,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "sample__slow_compute", arguments: { seconds: 600 } },
      }),
    });
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": keep-alive")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    expect(text).toContain(": keep-alive");
  }, 10_000);
});
