import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  postJson,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("rate limits", () => {
  it("answers 429 with Retry-After once a client address used its requests per minute", async () => {
    const proxy = await startTestProxy({
      mcpServers: { sample: sampleEntry() },
      limits: { requestsPerMinute: 3 },
    });
    for (let count = 0; count < 3; count++) {
      expect((await postJson(proxy.url, listTools)).status).toBe(200);
    }
    const limited = await postJson(proxy.url, listTools);
    expect(limited.status).toBe(429);
    // A full bucket holds a minute's worth: one request more fits after 20 s.
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(19);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(20);
    expect(limited.body).toMatchObject({
      error: { code: -32015, message: "rate limit of 3 requests per minute exceeded" },
    });
    await proxy.stop();
  });
});

describe("size, session and time limits", () => {
  let proxy: TestProxy;
  beforeAll(async () => {
    proxy = await startTestProxy({
      mcpServers: { sample: sampleEntry({ namespace: "" }) },
      limits: {
        maxBodyBytes: 20_000,
        maxSessions: 2,
        requestTimeoutMs: 300,
        // Above the sample backend's tools/list (about 9 KB), below a 16 KB echo.
        maxResultBytes: 15_000,
      },
    });
  });
  afterAll(() => proxy.stop());

  it("answers a body over maxBodyBytes with 413 naming the limit, on both kinds of POST", async () => {
    const big = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "x".repeat(25_000) } },
    };
    const plain = await postJson(proxy.url, big);
    expect(plain.status).toBe(413);
    expect(plain.body).toMatchObject({
      error: { message: "request body exceeds the limit of 20000 bytes" },
    });
    const connected = await connectSdk(proxy.url);
    const streamable = await fetch(proxy.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": connected.transport.sessionId as string,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify(big),
    });
    expect(streamable.status).toBe(413);
    expect(await streamable.text()).toContain("20000 bytes");
    await closeSdk(connected);
  });

  it("fails a call whose result is larger than maxResultBytes with a clear error", async () => {
    const connected = await connectSdk(proxy.url);
    const { client } = connected;
    const small = await client.callTool({ name: "echo", arguments: { message: "fits" } });
    expect(small.content).toEqual([{ type: "text", text: "fits" }]);
    const error = await client
      .callTool({ name: "echo", arguments: { message: "y".repeat(16_000) } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32012);
    expect((error as McpError).message).toMatch(
      /the result of \d+ bytes exceeds the limit of 15000 bytes \(limits\.maxResultBytes\)/,
    );
    await closeSdk(connected);
  });

  it("answers a request still running after requestTimeoutMs with -32001 and goes on serving", async () => {
    const connected = await connectSdk(proxy.url);
    const { client } = connected;
    const error = await client
      .callTool({ name: "long_task", arguments: { steps: 1, stepMs: 30_000 } }, undefined, {
        timeout: 20_000,
      })
      .catch((caught: unknown) => caught);
    expect((error as McpError).code).toBe(-32001);
    expect((error as McpError).message).toContain(
      "request timed out after 300 ms (limits.requestTimeoutMs)",
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await closeSdk(connected);
  });

  it("answers a modern (2026-07-28) request still running after requestTimeoutMs with -32001 too", async () => {
    const response = await fetch(proxy.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "long_task",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 41,
        method: "tools/call",
        params: {
          name: "long_task",
          arguments: { steps: 1, stepMs: 30_000 },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    const text = await response.text();
    const line = text.startsWith("{")
      ? text
      : (text.split("\n").find((candidate) => candidate.startsWith("data:")) ?? "").slice(5);
    expect(JSON.parse(line)).toEqual({
      jsonrpc: "2.0",
      id: 41,
      error: { code: -32001, message: "request timed out after 300 ms (limits.requestTimeoutMs)" },
    });
  });

  it("answers a new session over maxSessions with 503 and takes one again when a session ends", async () => {
    const first = await connectSdk(proxy.url);
    const second = await connectSdk(proxy.url);
    const refused = await connectSdk(proxy.url).catch((caught: unknown) => caught);
    expect(String(refused)).toContain("the gateway serves its maximum of 2 sessions");
    const raw = await fetch(proxy.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "x", version: "1" },
        },
      }),
    });
    expect([raw.status, raw.headers.get("retry-after")]).toEqual([503, "5"]);
    await closeSdk(first);
    const third = await connectSdk(proxy.url);
    await Promise.all([closeSdk(second), closeSdk(third)]);
  });
});
