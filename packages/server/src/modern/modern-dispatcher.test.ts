import type { JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../create-server.js";
import type { ModernRequestContext } from "./modern-context.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {} },
  "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "1.0.0" },
};

function createTestServer() {
  const server = createServer({ name: "modern-test", version: "1.0.0", instructions: "be kind" });
  server.registerTool(
    "echo",
    { inputSchema: z.object({ text: z.string() }) },
    async ({ text }, context) => {
      await context.log("info", `echo ${text}`);
      await context.progress(1, 1);
      return { content: [{ type: "text", text }] };
    },
  );
  server.registerTool("two_questions", {}, async (_args, context) => {
    const first = await context.elicit(
      { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } },
      { inputKey: "first" },
    );
    const second = await context.elicit(
      { mode: "form", message: "color?", requestedSchema: { type: "object", properties: {} } },
      { inputKey: "second" },
    );
    const text = `${String(first.content?.name)}/${String(second.content?.color)}`;
    return { content: [{ type: "text", text }] };
  });
  server.registerResource("readme", "test://readme", {}, (uri) => ({
    contents: [{ uri, text: "hello" }],
  }));
  return server;
}

function call(
  server: ReturnType<typeof createTestServer>,
  method: string,
  params: Record<string, unknown> = {},
  notifications: unknown[] = [],
): Promise<JSONRPCResponse | undefined> {
  const context: ModernRequestContext = {
    signal: new AbortController().signal,
    notify: (notifyMethod, notifyParams) =>
      notifications.push({ method: notifyMethod, params: notifyParams }),
  };
  return server.modern.handle(
    { jsonrpc: "2.0", id: 7, method, params: { _meta: META, ...params } },
    context,
  );
}

function resultOf(response: JSONRPCResponse | undefined): Record<string, unknown> {
  if (response === undefined || !("result" in response)) {
    throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  }
  return response.result as Record<string, unknown>;
}

function errorOf(response: JSONRPCResponse | undefined) {
  if (response === undefined || !("error" in response)) {
    throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  }
  return response.error;
}

describe("the modern (2026-07-28) request path", () => {
  it("answers server/discover with versions, capabilities, instructions and serverInfo", async () => {
    const result = resultOf(await call(createTestServer(), "server/discover"));
    expect(result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      instructions: "be kind",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern-test", version: "1.0.0" } },
    });
    // listChanged and subscribe are delivered on subscriptions/listen (see subscriptions.test.ts).
    expect(result.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
  });

  it("refuses an unknown protocol version with -32022 naming the supported ones", async () => {
    const response = await createTestServer().modern.handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
      },
      { signal: new AbortController().signal, notify: () => undefined },
    );
    expect(errorOf(response)).toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28"], requested: "1999-01-01" },
    });
  });

  it("refuses a request without _meta or without client capabilities with -32602", async () => {
    const server = createTestServer();
    const context = { signal: new AbortController().signal, notify: () => undefined };
    const bare = await server.modern.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      context,
    );
    expect(errorOf(bare).code).toBe(-32602);
    const noCapabilities = await server.modern.handle(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
      },
      context,
    );
    expect(errorOf(noCapabilities).code).toBe(-32602);
  });

  it("answers ping, initialize, logging/setLevel and resources/subscribe with -32601", async () => {
    const server = createTestServer();
    for (const method of ["ping", "initialize", "logging/setLevel", "resources/subscribe"]) {
      expect(errorOf(await call(server, method)).code, method).toBe(-32601);
    }
  });

  it("puts resultType and caching hints on list pages and reads", async () => {
    const server = createTestServer();
    expect(resultOf(await call(server, "tools/list"))).toMatchObject({
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
    });
    const read = resultOf(await call(server, "resources/read", { uri: "test://readme" }));
    expect(read).toMatchObject({ resultType: "complete", ttlMs: 0, contents: [{ text: "hello" }] });
    const missing = await call(server, "resources/read", { uri: "test://missing" });
    expect(errorOf(missing).code).toBe(-32602);
  });

  it("sends log messages only when the request asked with _meta logLevel", async () => {
    const server = createTestServer();
    const silent: unknown[] = [];
    await call(server, "tools/call", { name: "echo", arguments: { text: "hi" } }, silent);
    expect(silent.map((message) => (message as { method: string }).method)).toEqual([]);
    const verbose: unknown[] = [];
    const meta = { ...META, "io.modelcontextprotocol/logLevel": "debug", progressToken: "p" };
    const response = await server.modern.handle(
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { _meta: meta, name: "echo", arguments: { text: "hi" } },
      },
      {
        signal: new AbortController().signal,
        notify: (method, params) => verbose.push({ method, params }),
      },
    );
    expect(resultOf(response).resultType).toBe("complete");
    expect(verbose).toEqual([
      { method: "notifications/message", params: { level: "info", data: "echo hi" } },
      { method: "notifications/progress", params: { progressToken: "p", progress: 1, total: 1 } },
    ]);
  });
});
