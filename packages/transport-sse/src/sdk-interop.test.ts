import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import {
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { toSdkTransport } from "@patchbay/jsonrpc-core";
import { createStreamableHttpServer } from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FallbackClientTransport } from "./fallback-client-transport.js";
import { SseClientTransport } from "./sse-client-transport.js";
import { createSseServer } from "./sse-server.js";

function createFixtureServer(): McpServer {
  const server = new McpServer({ name: "sdk-fixture", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Adds", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
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
    return {
      content: [{ type: "text", text: `model said ${(answer.content as { text: string }).text}` }],
    };
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

async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(["add", "ask"]);
  const sum = await client.callTool({ name: "add", arguments: { a: 40, b: 2 } });
  expect(sum.content).toEqual([{ type: "text", text: "42" }]);
  const asked = await client.callTool({ name: "ask", arguments: {} });
  expect(asked.content).toEqual([{ type: "text", text: "model said pong" }]);
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Our legacy SSE server carrying an SDK McpServer per session. */
async function serveThroughOurSseServer(ssePath = "/sse") {
  const server = await createSseServer({
    ssePath,
    onSession: async (transport) => {
      await createFixtureServer().connect(toSdkTransport(transport));
    },
  });
  cleanups.push(() => server.close());
  return server;
}

/** The SDK's own legacy SSE server on node:http (GET /sse, POST /messages; anything else 404). */
async function startSdkSseServer() {
  const transports = new Map<string, SSEServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      transports.set(transport.sessionId, transport);
      await createFixtureServer().connect(transport);
      return;
    }
    if (request.method === "POST" && url.pathname === "/messages") {
      const transport = transports.get(url.searchParams.get("sessionId") ?? "");
      if (transport === undefined) {
        response.writeHead(404).end();
        return;
      }
      await transport.handlePostMessage(request, response);
      return;
    }
    response.writeHead(404).end();
  };
  const httpServer = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${port}/sse`, transports };
}

describe("legacy SSE interop with the official SDK", () => {
  it("the SDK's Client with SSEClientTransport talks to an SDK McpServer through our SSE server", async () => {
    const server = await serveThroughOurSseServer();
    const client = createSdkClient();
    await client.connect(new SSEClientTransport(server.url));
    expect(server.handler.sessionCount).toBe(1);
    await exercise(client);
    await client.close();
  });

  it("our SseClientTransport talks to the SDK's SSEServerTransport", async () => {
    const { url, transports } = await startSdkSseServer();
    const ours = new SseClientTransport({ url });
    const client = createSdkClient();
    await client.connect(toSdkTransport(ours));
    expect(transports.size).toBe(1);
    await exercise(client);
    await client.close();
  });
});

describe("FallbackClientTransport", () => {
  it("stays on Streamable HTTP when the server speaks it", async () => {
    const server = await createStreamableHttpServer({
      onSession: async (transport) => {
        await createFixtureServer().connect(toSdkTransport(transport));
      },
    });
    cleanups.push(() => server.close());
    const transport = new FallbackClientTransport({ url: server.url });
    const client = createSdkClient();
    await client.connect(toSdkTransport(transport));
    expect(transport.kind).toBe("streamable-http");
    await exercise(client);
    await client.close();
  });

  it("falls back to legacy SSE on the same URL when POST initialize gets a 4xx (our SSE server)", async () => {
    const server = await serveThroughOurSseServer("/mcp");
    const transport = new FallbackClientTransport({ url: server.url });
    const client = createSdkClient();
    await client.connect(toSdkTransport(transport));
    expect(transport.kind).toBe("sse");
    await exercise(client);
    await client.close();
  });

  it("falls back to the SDK's legacy SSE server, which answers the POST with 404", async () => {
    const { url } = await startSdkSseServer();
    const transport = new FallbackClientTransport({ url });
    const client = createSdkClient();
    await client.connect(toSdkTransport(transport));
    expect(transport.kind).toBe("sse");
    await exercise(client);
    await client.close();
  });

  it("does not fall back on a 5xx", async () => {
    const httpServer = createServer((_request, response) => {
      response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          httpServer.closeAllConnections();
        }),
    );
    const { port } = httpServer.address() as AddressInfo;
    const transport = new FallbackClientTransport({ url: `http://127.0.0.1:${port}/mcp` });
    await transport.start();
    const error = await transport
      .send({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} })
      .catch((caught: unknown) => caught);
    expect((error as { status?: number }).status).toBe(503);
    expect(transport.kind).toBeUndefined();
    await transport.close();
  });
});
