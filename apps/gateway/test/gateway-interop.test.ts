import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

type Connected = Awaited<ReturnType<typeof connectGateway>>;

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((block) => block.text ?? "").join("");
}

describe("the official SDK client, over stdio, against the gateway with four backends", () => {
  const directory = temporaryDirectory();
  let gateway: Connected;

  beforeAll(async () => {
    writeFileSync(join(directory, "hello.txt"), "hello from disk");
    const path = writeConfig(directory, {
      mcpServers: {
        everything: { command: process.execPath, args: [backends.everything] },
        memory: {
          command: process.execPath,
          args: [backends.memory],
          env: { MEMORY_FILE_PATH: join(directory, "memory.jsonl") },
        },
        files: { command: process.execPath, args: [backends.filesystem, directory] },
        sample: { command: process.execPath, args: [backends.sample] },
      },
    });
    gateway = await connectGateway(path);
  }, 30_000);

  afterAll(async () => {
    await gateway?.client.close();
  });

  it("lists every backend's tools under its namespace, all valid and at most 64 characters", async () => {
    const { tools } = await gateway.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "gateway_status",
        "get_events",
        "everything__echo",
        "memory__create_entities",
        "files__read_text_file",
        "sample__echo",
      ]),
    );
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
  });

  it("hides the tools server-everything offers only to clients that can sample or list roots", async () => {
    const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("everything__trigger-sampling-request");
    expect(names).not.toContain("everything__get-roots-list");
  });

  it("calls a tool of server-everything", async () => {
    const result = await gateway.client.callTool({
      name: "everything__echo",
      arguments: { message: "hi" },
    });
    expect(textOf(result)).toBe("Echo: hi");
  });

  it("writes and reads server-memory's knowledge graph", async () => {
    await gateway.client.callTool({
      name: "memory__create_entities",
      arguments: {
        entities: [{ name: "Patchbay", entityType: "project", observations: ["routes MCP"] }],
      },
    });
    const graph = await gateway.client.callTool({ name: "memory__read_graph", arguments: {} });
    expect(textOf(graph)).toContain("Patchbay");
  });

  it("reads a file through server-filesystem", async () => {
    const result = await gateway.client.callTool({
      name: "files__read_text_file",
      arguments: { path: join(directory, "hello.txt") },
    });
    expect(textOf(result)).toContain("hello from disk");
  });

  it("calls the sample backend", async () => {
    const result = await gateway.client.callTool({
      name: "sample__echo",
      arguments: { message: "x" },
    });
    expect(result.isError).not.toBe(true);
  });

  it("answers an unknown tool with -32602", async () => {
    await expect(gateway.client.callTool({ name: "nobody__nothing" })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("reports every backend running in gateway_status", async () => {
    const result = await gateway.client.callTool({ name: "gateway_status" });
    const status = JSON.parse(textOf(result)) as {
      gateway: { name: string };
      backends: Record<string, { status: string; tool_count: number; protocol_version: string }>;
    };
    expect(status.gateway.name).toBe("patchbay-gateway");
    for (const name of ["everything", "memory", "files", "sample"]) {
      expect(status.backends[name]).toMatchObject({
        status: "running",
        protocol_version: expect.any(String),
      });
      expect(status.backends[name]?.tool_count).toBeGreaterThan(0);
    }
  });

  it("reads a resource of server-everything", async () => {
    const { resources } = await gateway.client.listResources();
    const first = resources.find((resource) => resource.uri.startsWith("demo://"));
    expect(first).toBeDefined();
    const read = await gateway.client.readResource({ uri: first?.uri as string });
    expect(read.contents[0]?.uri).toBe(first?.uri);
  });
});

describe("config changes", () => {
  it("are picked up without a restart and announced with tools/list_changed", async () => {
    const directory = temporaryDirectory();
    const memory = {
      command: process.execPath,
      args: [backends.memory],
      env: { MEMORY_FILE_PATH: join(directory, "memory.jsonl") },
    };
    const path = writeConfig(directory, { mcpServers: { memory } });
    const gateway = await connectGateway(path);
    try {
      const changed = new Promise<void>((resolve) => {
        gateway.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve());
      });
      writeConfig(directory, { mcpServers: { memory, second: { ...memory, namespace: "notes" } } });
      await changed;
      const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("notes__read_graph");
      expect(names).toContain("memory__read_graph");
    } finally {
      await gateway.client.close();
    }
  });
});

describe("sampling and roots through the gateway", () => {
  it("reach the official SDK client from server-everything, which sees the client's capabilities", async () => {
    const directory = temporaryDirectory();
    const path = writeConfig(directory, {
      mcpServers: { everything: { command: process.execPath, args: [backends.everything] } },
    });
    const gateway = await connectGateway(path, { capabilities: { sampling: {}, roots: {} } });
    try {
      gateway.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: "assistant",
        content: { type: "text", text: "sampled by the test client" },
        model: "test-model",
      }));
      gateway.client.setRequestHandler(ListRootsRequestSchema, async () => ({
        roots: [{ uri: `file://${directory}`, name: "test root" }],
      }));
      const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("everything__trigger-sampling-request");
      expect(names).toContain("everything__get-roots-list");
      const sampled = await gateway.client.callTool({
        name: "everything__trigger-sampling-request",
        arguments: { prompt: "hello" },
      });
      expect(textOf(sampled)).toContain("sampled by the test client");
      const roots = await gateway.client.callTool({
        name: "everything__get-roots-list",
        arguments: {},
      });
      expect(textOf(roots)).toContain("test root");
    } finally {
      await gateway.client.close();
    }
  });
});

// SDK 1.x drops a progress notification that arrives in the same read as its result
// (typescript-sdk issue 2580); the sample backend paces its reports so that does not happen, and
// the gateway must keep them apart. 200 ms rather than the default 50 keeps this deterministic on
// a loaded machine (apps/sample-backend/README.md).
describe("progress and cancellation from the paced sample backend through the gateway", () => {
  const stepDelayMs = 200;
  let gateway: Connected;

  beforeAll(async () => {
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: {
        sample: {
          command: process.execPath,
          args: [backends.sample, "--step-delay-ms", String(stepDelayMs)],
        },
      },
    });
    gateway = await connectGateway(path);
  }, 30_000);

  afterAll(async () => {
    await gateway?.client.close();
  });

  it("the official SDK client sees all three progress notifications", async () => {
    const errors: Error[] = [];
    gateway.client.onerror = (error) => errors.push(error);
    const updates: Progress[] = [];
    const startedAt = performance.now();
    const result = await gateway.client.callTool(
      { name: "sample__test_tool_with_progress" },
      CallToolResultSchema,
      { onprogress: (update) => updates.push(update) },
    );
    expect(updates.map(({ progress, total }) => [progress, total])).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
    expect(result.isError).not.toBe(true);
    // A lower bound only: the backend cannot answer before its three pauses.
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(3 * stepDelayMs - 5);
    expect(errors.map(String)).not.toContainEqual(expect.stringMatching(/unknown token/));
  });

  it("an abort after the call started cancels the tool in the backend", async () => {
    const cancelledLog = new Promise<string>((resolve) => {
      gateway.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
        if (/cancelled/.test(String(params.data))) resolve(String(params.data));
      });
    });
    const controller = new AbortController();
    const seen: number[] = [];
    const outcome = gateway.client
      .callTool({ name: "sample__long_task", arguments: { steps: 3, stepMs: 60_000 } }, undefined, {
        signal: controller.signal,
        // The first report means the tool is running in the backend: abort then.
        onprogress: ({ progress }) => {
          seen.push(progress);
          controller.abort(new Error("the caller gave up"));
        },
      })
      .then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
    // SDK 1.x rejects an aborted call with McpError -32001 carrying the abort reason.
    expect(await outcome).toMatchObject({
      error: { code: -32001, message: expect.stringContaining("the caller gave up") },
    });
    expect(seen).toEqual([0]);
    // The backend's tool saw the cancellation the gateway forwarded (it logs where it stopped).
    expect(await cancelledLog).toBe("long_task cancelled at step 1 of 3");
  });
});
