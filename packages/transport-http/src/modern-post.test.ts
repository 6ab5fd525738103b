import { request as httpRequest } from "node:http";
import type { JSONRPCNotification, JSONRPCRequest } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { ModernMessageHandler } from "./modern-http-request.js";
import {
  openSession,
  post,
  rawRequest,
  sseMessages,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";

const MODERN = "2026-07-28";

/** A stand-in for `server.modern`: echoes the method, logs first for `tools/call`, -32601 for `ping`. */
function createEchoHandler(seen: (JSONRPCRequest | JSONRPCNotification)[]): ModernMessageHandler {
  return {
    protocolVersions: [MODERN],
    async handle(message, context) {
      seen.push(message);
      if (!("id" in message)) return undefined;
      if (message.method === "ping") {
        return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no ping" } };
      }
      if (message.method === "tools/call") {
        context.notify("notifications/message", { level: "info", data: "working" });
      }
      return { jsonrpc: "2.0", id: message.id, result: { method: message.method } };
    },
  };
}

function modernRequest(method: string, params: Record<string, unknown> = {}, version = MODERN) {
  return {
    jsonrpc: "2.0" as const,
    id: 5,
    method,
    params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": version } },
  };
}

function modernHeaders(method: string, extra: Record<string, string> = {}) {
  return { "mcp-protocol-version": MODERN, "mcp-method": method, ...extra };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("modern (2026-07-28) POSTs", () => {
  it("reach the modern handler without a session and are answered as JSON", async () => {
    const seen: unknown[] = [];
    server = await startTestServer({ modern: createEchoHandler(seen as never[]) });
    const answer = await post(server.url, modernRequest("tools/list"), modernHeaders("tools/list"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { method: "tools/list" },
    });
    expect(server.handler.sessionCount).toBe(0);
  });

  it("switch to an SSE stream when the handler sends a related notification first", async () => {
    server = await startTestServer({ modern: createEchoHandler([]) });
    const answer = await post(
      server.url,
      modernRequest("tools/call", { name: "echo" }),
      modernHeaders("tools/call", { "mcp-name": "echo" }),
    );
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(sseMessages(answer.text)).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "working" },
      },
      { jsonrpc: "2.0", id: 5, result: { method: "tools/call" } },
    ]);
  });

  it("answer -32020 (400) when Mcp-Method, Mcp-Name or the version header disagree with the body", async () => {
    const seen: unknown[] = [];
    server = await startTestServer({ modern: createEchoHandler(seen as never[]) });
    const cases: [ReturnType<typeof modernRequest>, Record<string, string>][] = [
      [modernRequest("tools/list"), modernHeaders("prompts/list")],
      [modernRequest("tools/list"), { "mcp-protocol-version": MODERN }],
      [
        modernRequest("tools/call", { name: "a" }),
        modernHeaders("tools/call", { "mcp-name": "b" }),
      ],
      [modernRequest("tools/call", { name: "a" }), modernHeaders("tools/call")],
      [
        modernRequest("tasks/get", { taskId: "t1" }),
        modernHeaders("tasks/get", { "mcp-name": "t2" }),
      ],
      [modernRequest("tasks/cancel", { taskId: "t1" }), modernHeaders("tasks/cancel")],
      [modernRequest("tools/list", {}, "1999-01-01"), modernHeaders("tools/list")],
    ];
    for (const [body, headers] of cases) {
      const answer = await post(server.url, body, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ id: 5, error: { code: -32020 } });
    }
    expect(seen).toEqual([]);
  });

  it("accept a base64-encoded Mcp-Name", async () => {
    server = await startTestServer({ modern: createEchoHandler([]) });
    const name = "café";
    const encoded = `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
    const answer = await post(
      server.url,
      modernRequest("prompts/get", { name }),
      modernHeaders("prompts/get", { "mcp-name": encoded }),
    );
    expect(answer.status).toBe(200);
  });

  it("map -32601 to 404 and a notification to 202", async () => {
    server = await startTestServer({ modern: createEchoHandler([]) });
    const missing = await post(server.url, modernRequest("ping"), modernHeaders("ping"));
    expect(missing.status).toBe(404);
    const notification = { jsonrpc: "2.0" as const, method: "notifications/cancelled", params: {} };
    const accepted = await post(server.url, notification, modernHeaders("notifications/cancelled"));
    expect(accepted.status).toBe(202);
  });

  it("leave initialize and session traffic on the legacy path", async () => {
    const seen: unknown[] = [];
    server = await startTestServer({ modern: createEchoHandler(seen as never[]) });
    const sessionId = await openSession(server.url);
    const ping = await post(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    );
    expect(ping.status).toBe(200);
    expect(seen).toEqual([]);
  });

  it("are refused as an unsupported version when no modern handler is configured", async () => {
    server = await startTestServer();
    const answer = await post(server.url, modernRequest("tools/list"), modernHeaders("tools/list"));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("Unsupported protocol version: 2026-07-28");
  });

  it("keep a long-lived stream open and abort the handler when the client closes it", async () => {
    let aborted!: () => void;
    const handlerAborted = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const handler: ModernMessageHandler = {
      protocolVersions: [MODERN],
      async handle(message, context) {
        context.notify("notifications/subscriptions/acknowledged", { notifications: {} });
        await new Promise<void>((resolve) =>
          context.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
        aborted();
        return { jsonrpc: "2.0", id: "id" in message ? message.id : 0, result: {} };
      },
    };
    server = await startTestServer({ modern: handler });
    const client = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...modernHeaders("subscriptions/listen"),
      },
      body: JSON.stringify(modernRequest("subscriptions/listen", { notifications: {} })),
      signal: client.signal,
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("notifications/subscriptions/acknowledged");
    client.abort();
    await handlerAborted;
  });

  it("send keep-alive comments on an idle modern stream", async () => {
    const clock = createManualClock();
    const handler: ModernMessageHandler = {
      protocolVersions: [MODERN],
      async handle(message, context) {
        context.notify("notifications/subscriptions/acknowledged", { notifications: {} });
        await new Promise<void>((resolve) =>
          context.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
        return { jsonrpc: "2.0", id: "id" in message ? message.id : 0, result: {} };
      },
    };
    server = await startTestServer({ modern: handler, clock, keepAliveIntervalMs: 1_000 });
    const client = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...modernHeaders("subscriptions/listen"),
      },
      body: JSON.stringify(modernRequest("subscriptions/listen", { notifications: {} })),
      signal: client.signal,
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("acknowledged");
    clock.advance(1_000);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(": keep-alive\n\n");
    client.abort();
  });

  it("drop a modern stream whose client stops reading once 8 MiB wait unsent", async () => {
    let outcome!: (sent: number) => void;
    const dropped = new Promise<number>((resolve) => {
      outcome = resolve;
    });
    const chunk = "x".repeat(1024 * 1024);
    const handler: ModernMessageHandler = {
      protocolVersions: [MODERN],
      async handle(message, context) {
        let sent = 0;
        // At most 256 MiB: far beyond the 8 MiB limit plus what the kernel buffers on loopback.
        while (!context.signal.aborted && sent < 256) {
          context.notify("notifications/message", { level: "info", data: chunk });
          sent += 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
        outcome(sent);
        return { jsonrpc: "2.0", id: "id" in message ? message.id : 0, result: {} };
      },
    };
    server = await startTestServer({ modern: handler });
    const request = httpRequest(server.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...modernHeaders("tools/list"),
      },
    });
    request.on("response", (response) => response.pause());
    request.on("error", () => undefined);
    request.end(JSON.stringify(modernRequest("tools/list")));
    expect(await dropped).toBeLessThan(256);
    request.destroy();
  });

  it("answer a modern GET or DELETE with 405, allowing POST", async () => {
    server = await startTestServer({ modern: createEchoHandler([]) });
    for (const method of ["GET", "DELETE"]) {
      const answer = await rawRequest(server.url, {
        method,
        headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN },
      });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
    }
  });
});
