import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  type JSONRPCMessage,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { toSdkTransport } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it, vi } from "vitest";
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
      const logged = new Promise<void>((resolve) => {
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
          logs.push(notification.params.data);
          resolve();
        });
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
        await logged;
        expect(logs).toEqual(["working"]);
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
    const listChanged = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
        resolve();
      });
    });
    const transport = new StreamableHTTPClientTransport(server.url);
    const sessionOf = (_client: Client) => transport.sessionId as string;
    await client.connect(transport);
    cleanups.push(() => client.close());
    const [session] = [...Array(1)].map(() => server.handler.getSession(sessionOf(client)));
    await waitUntil(() => session?.hasStandaloneStream === true);
    await client.callTool({ name: "grow", arguments: {} });
    await listChanged;
    expect(changed).toBe(1);
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
  async function startSdkServer(enableJsonResponse: boolean, eventStore?: EventStore) {
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
        ...(eventStore === undefined ? {} : { eventStore, retryInterval: 10 }),
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

  /** Starts a polling call (the `poll` tool) through our client, recording each GET's Last-Event-ID. */
  async function callPoll(eventStore: EventStore) {
    const { url } = await startSdkServer(false, eventStore);
    const gets: (string | undefined)[] = [];
    let resumed = () => {};
    const resumedStreamOpened = new Promise<void>((resolve) => {
      resumed = resolve;
    });
    const ours = new StreamableHttpClientTransport({
      url,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === "GET") {
          const lastEventId = (init.headers as Record<string, string>)["last-event-id"];
          gets.push(lastEventId);
          if (lastEventId !== undefined && response.ok) resumed();
        }
        return response;
      },
    });
    const client = createSdkClient();
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    await client.connect(toSdkTransport(ours));
    cleanups.push(() => client.close());
    const result = client.callTool({ name: "poll", arguments: {} });
    result.catch(() => {}); // a test that fails early still awaits it; cleanup may close it first
    return {
      result,
      resumptions: () => gets.filter((id) => id !== undefined),
      logs,
      resumedStreamOpened,
    };
  }

  it("resumes with Last-Event-ID after the SDK server closes a request's SSE stream (polling) and gets the result", async () => {
    // The SDK's example InMemoryEventStore orders events wrongly within one millisecond (see the
    // next test); this store keeps them in the order they were stored.
    const events: { eventId: string; streamId: string; message: JSONRPCMessage }[] = [];
    const store: EventStore = {
      async storeEvent(streamId, message) {
        const eventId = `${streamId}_${String(events.length + 1).padStart(12, "0")}`;
        events.push({ eventId, streamId, message });
        return eventId;
      },
      async replayEventsAfter(lastEventId, { send }) {
        const last = events.findIndex((event) => event.eventId === lastEventId);
        const streamId = events[last]?.streamId ?? "";
        for (const event of events.slice(last + 1)) {
          if (event.streamId === streamId) await send(event.eventId, event.message);
        }
        return streamId;
      },
    };
    const { result, resumptions, logs } = await callPoll(store);
    expect((await result).content).toEqual([{ type: "text", text: "polled" }]);
    expect(logs).toEqual(["after close"]);
    expect(resumptions()).toEqual([expect.stringMatching(/_\d{12}$/)]);
  });

  // Expected to fail until the SDK fixes it: SDK 1.32.2's example InMemoryEventStore (which
  // servers copy) makes event ids `${streamId}_${Date.now()}_${random}` and replays in string order,
  // so events stored in the same millisecond as the client's Last-Event-ID sort before or after it
  // at random, and those before it are never replayed. Here the poll tool's notification and result
  // land in that millisecond, as they did in about 1 run in 5 when this test ran on real clocks.
  // The clock and the random suffixes are pinned only while the SDK's own generateEventId runs.
  it.fails("gets the result when it is stored in the same millisecond as the event it resumes after (SDK 1.32.2 InMemoryEventStore defect)", async () => {
    let suffix = 0.9;
    class SameMillisecondEventStore extends InMemoryEventStore {
      override storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
        const now = vi.spyOn(Date, "now").mockReturnValue(1_800_000_000_000);
        const random = vi.spyOn(Math, "random").mockReturnValue(suffix);
        suffix /= 2; // each later event sorts before the earlier ones
        try {
          return super.storeEvent(streamId, message); // makes its id before its first await
        } finally {
          now.mockRestore();
          random.mockRestore();
        }
      }
    }
    const store = new SameMillisecondEventStore();
    const { result, resumptions, resumedStreamOpened } = await callPoll(store);
    await resumedStreamOpened;
    expect(resumptions()).toEqual([expect.any(String)]);
    // The replay has run by now; a fixed store delivers the result on the resumed stream at once.
    const deadline = new Promise<never>((_resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("no result 2 s after the resumed stream opened: it was lost")),
        2_000,
      );
      cleanups.push(async () => clearTimeout(timer));
    });
    expect((await Promise.race([result, deadline])).content).toEqual([
      { type: "text", text: "polled" },
    ]);
  });

  it("receives list_changed on the GET stream and ends the session with DELETE on close", async () => {
    const { url, transports } = await startSdkServer(false);
    let opened = () => {};
    const getOpened = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const ours = new StreamableHttpClientTransport({
      url,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === "GET" && response.ok) opened();
        return response;
      },
    });
    const client = createSdkClient();
    let changed = 0;
    const listChanged = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
        resolve();
      });
    });
    await client.connect(toSdkTransport(ours));
    const sdkTransport = transports.get(ours.sessionId as string);
    expect(sdkTransport).toBeDefined();
    const sdkClosed = new Promise<void>((resolve) => {
      const previous = sdkTransport!.onclose;
      sdkTransport!.onclose = () => {
        resolve();
        previous?.();
      };
    });
    await getOpened;
    await client.callTool({ name: "grow", arguments: {} });
    await listChanged;
    expect(changed).toBe(1);
    await client.close();
    await sdkClosed;
  });
});
