import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { toSdkTransport } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { StreamableHttpClientTransport } from "./streamable-http-client-transport.js";
import { createStreamableHttpServer, type StreamableHttpServer } from "./streamable-http-server.js";
import type { ResponseMode } from "./streamable-http-server-transport.js";
import { waitUntil } from "./test-support/http-fixtures.js";

/** An SDK McpServer with tools that log, report progress, ask for sampling and change the list. */
function createFixtureServer(): McpServer {
  const server = new McpServer(
    { name: "sdk-fixture", version: "1.0.0" },
    { capabilities: { logging: {}, tools: { listChanged: true } } },
  );
  server.registerTool(
    "add",
    { description: "Adds", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool("chatty", { description: "Logs and reports progress" }, async (extra) => {
    await extra.sendNotification({
      method: "notifications/message",
      params: { level: "info", data: "working" },
    });
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: 1, total: 2 },
      });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("ask", { description: "Asks the client to sample" }, async (extra) => {
    const answer = await extra.sendRequest(
      {
        method: "sampling/createMessage",
        params: {
          messages: [{ role: "user", content: { type: "text", text: "hi" } }],
          maxTokens: 5,
        },
      },
      CreateMessageResultSchema,
    );
    const content = answer.content as { text?: string };
    return { content: [{ type: "text", text: `model said ${content.text}` }] };
  });
  server.registerTool(
    "poll",
    { description: "Closes its SSE stream, then answers" },
    async (extra) => {
      // 2025-11-25 SSE polling: the client must come back with Last-Event-ID to get this result.
      extra.closeSSEStream?.();
      await extra.sendNotification({
        method: "notifications/message",
        params: { level: "info", data: "after close" },
      });
      return { content: [{ type: "text", text: extra.closeSSEStream ? "polled" : "no polling" }] };
    },
  );
  server.registerTool("grow", { description: "Adds a tool" }, async () => {
    server.registerTool("extra", { description: "Added later" }, async () => ({ content: [] }));
    return { content: [] };
  });
  return server;
}

function createSdkClient(): Client {
  const client = new Client(
    { name: "sdk-client", version: "1.0.0" },
    { capabilities: { sampling: {} } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "pong" },
    model: "test-model",
  }));
  return client;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serveSdkServerThroughOurHandler(options: {
  stateless?: boolean;
  responseMode?: ResponseMode;
}): Promise<StreamableHttpServer> {
  const server = await createStreamableHttpServer({
    ...options,
    onSession: async (transport) => {
      await createFixtureServer().connect(toSdkTransport(transport));
    },
  });
  cleanups.push(() => server.close());
  return server;
}

describe("the SDK's Client with StreamableHTTPClientTransport against an SDK McpServer served by our handler", () => {
  for (const responseMode of ["sse", "json"] as const) {
    it(`initializes, lists and calls tools, gets logs and progress, answers sampling (${responseMode} answers)`, async () => {
      const server = await serveSdkServerThroughOurHandler({ responseMode });
      const client = createSdkClient();
      const logs: unknown[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logs.push(notification.params.data);
      });
      const transport = new StreamableHTTPClientTransport(server.url);
      await client.connect(transport);
      cleanups.push(() => client.close());
      expect(client.getServerVersion()?.name).toBe("sdk-fixture");
      expect(server.handler.getSession(transport.sessionId as string)).toBeDefined();
      expect(server.handler.sessionCount).toBe(1);

      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        "add",
        "ask",
        "chatty",
        "grow",
        "poll",
      ]);
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      expect(sum.content).toEqual([{ type: "text", text: "42" }]);

      const progress: number[] = [];
      const chatty = await client.callTool({ name: "chatty", arguments: {} }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(chatty.content).toEqual([{ type: "text", text: "done" }]);
      if (responseMode === "sse") {
        // Related messages travel on the request's own stream, before its response.
        expect(logs).toEqual(["working"]);
        expect(progress).toEqual([1]);
      } else {
        // A JSON answer has no room for them: they take the GET stream, racing the response.
        await waitUntil(() => logs.length === 1);
      }

      const asked = await client.callTool({ name: "ask", arguments: {} });
      expect(asked.content).toEqual([{ type: "text", text: "model said pong" }]);
    });
  }

  it("lets an SDK tool close its SSE stream; the SDK client resumes with Last-Event-ID and gets the result", async () => {
    const server = await createStreamableHttpServer({
      retryIntervalMs: 10,
      onSession: async (transport) => {
        await createFixtureServer().connect(toSdkTransport(transport));
      },
    });
    cleanups.push(() => server.close());
    const lastEventIds: (string | null)[] = [];
    const client = createSdkClient();
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    await client.connect(
      new StreamableHTTPClientTransport(server.url, {
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers);
          if (init?.method === "GET") lastEventIds.push(headers.get("last-event-id"));
          return fetch(input, init);
        },
      }),
    );
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: "poll", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "polled" }]);
    expect(logs).toEqual(["after close"]);
    expect(lastEventIds.some((id) => id !== null)).toBe(true);
  });

  it("receives list_changed on the standalone GET stream", async () => {
    const server = await serveSdkServerThroughOurHandler({});
    const client = createSdkClient();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const transport = new StreamableHTTPClientTransport(server.url);
    const sessionOf = (_client: Client) => transport.sessionId as string;
    await client.connect(transport);
    cleanups.push(() => client.close());
    const [session] = [...Array(1)].map(() => server.handler.getSession(sessionOf(client)));
    await waitUntil(() => session?.hasStandaloneStream === true);
    await client.callTool({ name: "grow", arguments: {} });
    await waitUntil(() => changed === 1);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("extra");
  });

  it("ends the session with DELETE when the SDK client terminates it", async () => {
    const server = await serveSdkServerThroughOurHandler({});
    const client = createSdkClient();
    const transport = new StreamableHTTPClientTransport(server.url);
    await client.connect(transport);
    expect(server.handler.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(server.handler.sessionCount).toBe(0);
    await client.close();
  });

  it("works against a stateless endpoint", async () => {
    const server = await serveSdkServerThroughOurHandler({ stateless: true, responseMode: "json" });
    const client = createSdkClient();
    await client.connect(new StreamableHTTPClientTransport(server.url));
    cleanups.push(() => client.close());
    const sum = await client.callTool({ name: "add", arguments: { a: 1, b: 1 } });
    expect(sum.content).toEqual([{ type: "text", text: "2" }]);
    expect(server.handler.sessionCount).toBe(0);
  });
});

describe("our StreamableHttpClientTransport against the SDK's StreamableHTTPServerTransport", () => {
  async function startSdkServer(enableJsonResponse: boolean, resumable = false) {
    const transports = new Map<string, StreamableHTTPServerTransport>();
    const servers: McpServer[] = [];
    const httpServer = createServer(async (request, response) => {
      const sessionId = request.headers["mcp-session-id"];
      const existing = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
      if (existing !== undefined) {
        await existing.handleRequest(request, response);
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse,
        ...(resumable ? { eventStore: new InMemoryEventStore(), retryInterval: 10 } : {}),
        onsessioninitialized: (id) => {
          transports.set(id, transport);
        },
      });
      const server = createFixtureServer();
      servers.push(server);
      await server.connect(transport);
      await transport.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    const { port } = httpServer.address() as AddressInfo;
    cleanups.push(async () => {
      await Promise.allSettled(servers.map((server) => server.close()));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    });
    return { url: `http://127.0.0.1:${port}/mcp`, transports };
  }

  for (const enableJsonResponse of [false, true]) {
    it(`talks MCP through the SDK Client (json answers: ${enableJsonResponse})`, async () => {
      const { url, transports } = await startSdkServer(enableJsonResponse);
      const ours = new StreamableHttpClientTransport({ url });
      const client = createSdkClient();
      await client.connect(toSdkTransport(ours));
      cleanups.push(() => client.close());
      expect(ours.sessionId).toEqual(expect.any(String));
      expect(ours.protocolVersion).toBe("2025-11-25");
      expect(transports.has(ours.sessionId as string)).toBe(true);
      const sum = await client.callTool({ name: "add", arguments: { a: 20, b: 22 } });
      expect(sum.content).toEqual([{ type: "text", text: "42" }]);
      if (!enableJsonResponse) {
        // SDK 1.x drops related server messages in its JSON answer mode, so these need SSE.
        const asked = await client.callTool({ name: "ask", arguments: {} });
        expect(asked.content).toEqual([{ type: "text", text: "model said pong" }]);
        const progress: number[] = [];
        await client.callTool({ name: "chatty", arguments: {} }, undefined, {
          onprogress: (update) => progress.push(update.progress),
        });
        expect(progress).toEqual([1]);
      }
    });
  }

  // Retried: SDK 1.32.2's server transport sometimes loses this result (about 1 run in 8 under
  // load). Traces show our client resuming with Last-Event-ID and getting 200. The resumed stream
  // carries the tool's notification, but the server never writes the result anywhere. This fits a
  // race in the SDK's replay, between reading its event store and registering the resumed stream.
  // Our own server's resumption is judged by the conformance suite's server-sse-polling scenario.
  it("resumes after the SDK server closes a request's SSE stream (polling) and gets the result", {
    retry: 2,
  }, async () => {
    const { url } = await startSdkServer(false, true);
    const gets: (string | undefined)[] = [];
    const ours = new StreamableHttpClientTransport({
      url,
      fetch: async (input, init) => {
        if (init?.method === "GET") {
          gets.push((init.headers as Record<string, string>)["last-event-id"]);
        }
        return fetch(input, init);
      },
    });
    const client = createSdkClient();
    await client.connect(toSdkTransport(ours));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: "poll", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "polled" }]);
    expect(gets.some((id) => id !== undefined)).toBe(true);
  });

  it("receives list_changed on the GET stream and ends the session with DELETE on close", async () => {
    const { url, transports } = await startSdkServer(false);
    let getOpened = false;
    const ours = new StreamableHttpClientTransport({
      url,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === "GET" && response.ok) getOpened = true;
        return response;
      },
    });
    const client = createSdkClient();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    await client.connect(toSdkTransport(ours));
    const sdkTransport = transports.get(ours.sessionId as string);
    let sdkClosed = false;
    if (sdkTransport !== undefined) {
      const previous = sdkTransport.onclose;
      sdkTransport.onclose = () => {
        sdkClosed = true;
        previous?.();
      };
    }
    await waitUntil(() => getOpened);
    await client.callTool({ name: "grow", arguments: {} });
    await waitUntil(() => changed === 1);
    await client.close();
    await waitUntil(() => sdkClosed);
  });
});
