import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

let server: StartedServer;

beforeAll(async () => {
  // Paced like the other interop tests: a loaded machine may read progress and result together.
  server = await startServer(sampleBackendBin, [
    "--transport",
    "ws",
    "--port",
    "0",
    "--step-delay-ms",
    "200",
  ]);
});

afterAll(async () => {
  await server.stop();
  expect(() => process.kill(server.child.pid!, 0)).toThrow();
});

/** The SDK's WebSocket client uses the global WebSocket, which Node 20 lacks: `ws` stands in. */
async function connect(capabilities: Record<string, unknown> = {}): Promise<Client> {
  vi.stubGlobal("WebSocket", WebSocket);
  const client = new Client({ name: "sdk-ws-interop", version: "1.0.0" }, { capabilities });
  await client.connect(new WebSocketClientTransport(new URL(server.url)));
  return client;
}

describe("the official SDK 1.x WebSocketClientTransport against the sample backend over ws", () => {
  it("initializes, lists tools and calls one", async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe("patchbay-sample-backend");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "long_task"]));
    const echoed = await client.callTool({ name: "echo", arguments: { message: "over ws" } });
    expect(JSON.stringify(echoed.content)).toContain("over ws");
    await client.close();
  });

  it("sees every progress notification of a paced task", async () => {
    const client = await connect();
    const seen: Progress[] = [];
    const result = await client.callTool(
      { name: "long_task", arguments: { steps: 3, stepMs: 20 } },
      undefined,
      { onprogress: (progress) => seen.push(progress) },
    );
    expect(JSON.stringify(result.content)).toContain("Completed 3 steps");
    expect(seen.map((progress) => progress.progress)).toEqual([0, 1, 2, 3]);
    await client.close();
  });

  it("receives the tool's log messages at the level it asked for", async () => {
    const client = await connect();
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params.data);
    });
    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(messages).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    await client.close();
  });

  it("answers the server's sampling and elicitation requests over the same socket", async () => {
    const client = await connect({ sampling: {}, elicitation: {} });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: "assistant",
      model: "test-model",
      content: {
        type: "text",
        text: `echo of ${JSON.stringify(request.params.messages[0]?.content)}`,
      },
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { username: "yes please", email: "someone@example.com" },
    }));
    const sampled = await client.callTool({
      name: "test_sampling",
      arguments: { prompt: "hello model" },
    });
    expect(JSON.stringify(sampled.content)).toContain("hello model");
    const elicited = await client.callTool({
      name: "test_elicitation",
      arguments: { message: "proceed?" },
    });
    expect(JSON.stringify(elicited.content)).toContain("yes please");
    await client.close();
  });

  it("cancels a running task when the caller aborts, and keeps serving", async () => {
    const client = await connect();
    const controller = new AbortController();
    const call = client.callTool(
      { name: "long_task", arguments: { steps: 50, stepMs: 50 } },
      undefined,
      {
        signal: controller.signal,
        // Abort once the task reports its first finished step: it is running mid-call.
        onprogress: (progress) => {
          if (progress.progress === 1) controller.abort("the user stopped it");
        },
      },
    );
    await expect(call).rejects.toThrow(/the user stopped it|abort/i);
    const echoed = await client.callTool({ name: "echo", arguments: { message: "after" } });
    expect(JSON.stringify(echoed.content)).toContain("after");
    await client.close();
  });
});
