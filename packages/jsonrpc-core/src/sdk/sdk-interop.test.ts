import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createConnection } from "../connection/create-connection.js";
import { MethodNotFoundError } from "../errors/standard-errors.js";
import { TransportError } from "../errors/transport-errors.js";
import { createMemoryTransportPair } from "../memory/memory-transport.js";
import type { TransportCloseEvent } from "../transport.js";
import { fromSdkTransport } from "./from-sdk-transport.js";
import { toSdkTransport } from "./to-sdk-transport.js";

function createSdkServer(): McpServer {
  const server = new McpServer({ name: "fixture", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  return server;
}

describe("SDK interop: Patchbay memory pair under the SDK's Client and McpServer", () => {
  it("initializes, lists tools and calls a tool", async () => {
    const [clientSide, serverSide] = createMemoryTransportPair();
    const server = createSdkServer();
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await server.connect(toSdkTransport(serverSide));
    await client.connect(toSdkTransport(clientSide));

    expect(client.getServerVersion()).toMatchObject({ name: "fixture" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add"]);
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);

    const serverClosed = new Promise<void>((resolve) => {
      server.server.onclose = () => resolve();
    });
    await client.close();
    await serverClosed;
  });
});

describe("SDK interop: an SDK InMemoryTransport under a Patchbay Connection", () => {
  it("talks MCP to the SDK's McpServer", async () => {
    const [sdkClientSide, sdkServerSide] = InMemoryTransport.createLinkedPair();
    await createSdkServer().connect(sdkServerSide);
    const connection = createConnection(fromSdkTransport(sdkClientSide));
    await connection.start();

    const initialized = (await connection.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "patchbay-test", version: "0.0.0" },
    })) as { serverInfo: { name: string } };
    expect(initialized.serverInfo.name).toBe("fixture");
    await connection.notify("notifications/initialized");

    const listed = (await connection.request("tools/list", {})) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(["add"]);
    const called = await connection.request("tools/call", {
      name: "add",
      arguments: { a: 20, b: 22 },
    });
    expect(called).toEqual({ content: [{ type: "text", text: "42" }] });

    const error = await connection.request("no/such/method").catch((caught: unknown) => caught);
    expect(MethodNotFoundError.isInstance(error)).toBe(true);

    const events: TransportCloseEvent[] = [];
    connection.onClose((event) => events.push(event));
    await connection.close();
    await connection.close();
    expect(events).toEqual([{ initiator: "local" }]);
  });

  it("reports the remote close once when the SDK side closes", async () => {
    const [sdkClientSide, sdkServerSide] = InMemoryTransport.createLinkedPair();
    const transport = fromSdkTransport(sdkClientSide);
    const events: TransportCloseEvent[] = [];
    transport.onClose((event) => events.push(event));
    await transport.start();
    await sdkServerSide.start();
    await sdkServerSide.close();
    expect(events).toEqual([{ initiator: "remote" }]);
  });
});

describe("SDK interop: the SDK's StdioServerTransport under a Patchbay Connection", () => {
  it("answers a line that is not JSON with -32700 and keeps serving", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = createConnection(fromSdkTransport(new StdioServerTransport(input, output)));
    connection.handle("still/there", () => "yes");
    await connection.start();
    const lines: unknown[] = [];
    const answered = new Promise<void>((resolve) => {
      output.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
          lines.push(JSON.parse(line));
        }
        if (lines.length === 2) resolve();
      });
    });
    input.write("this is not JSON\n");
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "still/there" })}\n`);
    await answered;
    expect(lines).toEqual([
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32700 }) },
      { jsonrpc: "2.0", id: 0, result: "yes" },
    ]);
    await connection.close();
  });

  it("rejects start() with a TransportError when the SDK transport was started already", async () => {
    const sdkTransport = new StdioServerTransport(new PassThrough(), new PassThrough());
    await sdkTransport.start();
    const transport = fromSdkTransport(sdkTransport);
    const failure = await transport.start().catch((caught: unknown) => caught);
    expect(TransportError.isInstance(failure)).toBe(true);
    expect(String(failure)).toMatch(/already started.*needs a transport that was not started yet/);
    await transport.close();
  });
});
