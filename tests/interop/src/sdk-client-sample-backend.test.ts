import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  LoggingMessageNotificationSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

interface Served {
  transport: Transport;
  server?: StartedServer;
  pid?: () => number | undefined;
  childPid?: number | undefined;
}

const started: Served[] = [];

afterEach(async () => {
  for (const served of started.splice(0)) {
    // Closing the transport ends a stdio child even when the test failed before client.close().
    await served.transport.close();
    await served.server?.stop();
    const pid = served.childPid ?? served.server?.child.pid;
    // No process outlives its test: kill(pid, 0) throws ESRCH once the child is gone.
    if (pid !== undefined) expect(() => process.kill(pid, 0)).toThrow();
  }
});

/** Each transport starts the sample backend with `extraArgs` after its own. */
const transports: Record<string, (extraArgs?: string[]) => Promise<Served>> = {
  "stdio (the SDK's StdioClientTransport spawning the bin)": async (extraArgs = []) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [sampleBackendBin, "--transport", "stdio", ...extraArgs],
      stderr: "ignore",
    });
    return { transport, pid: () => transport.pid ?? undefined };
  },
  "Streamable HTTP (the SDK's StreamableHTTPClientTransport)": async (extraArgs = []) => {
    const server = await startServer(sampleBackendBin, [
      ...["--transport", "http", "--port", "0"],
      ...extraArgs,
    ]);
    return { transport: new StreamableHTTPClientTransport(new URL(server.url)), server };
  },
  "legacy HTTP+SSE (the SDK's SSEClientTransport)": async (extraArgs = []) => {
    const server = await startServer(sampleBackendBin, [
      ...["--transport", "sse", "--port", "0"],
      ...extraArgs,
    ]);
    return { transport: new SSEClientTransport(new URL(server.url)), server };
  },
};

describe.each(Object.entries(transports))(
  "official SDK Client against the sample backend over %s",
  (_name, serve) => {
    it("initializes, lists, calls a tool, reads a resource and gets a prompt", async () => {
      const served = await serve();
      started.push(served);
      const client = new Client({ name: "sdk-interop", version: "1.0.0" });
      await client.connect(served.transport);
      served.childPid = served.pid?.();

      expect(client.getServerVersion()?.name).toBe("patchbay-sample-backend");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["echo", "test_simple_text", "add"]),
      );

      const echoed = await client.callTool({ name: "echo", arguments: { message: "hello" } });
      expect(echoed.isError).not.toBe(true);
      expect(JSON.stringify(echoed.content)).toContain("hello");

      const added = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      expect(added.structuredContent).toMatchObject({ sum: 5 });

      const resource = await client.readResource({ uri: "test://static-text" });
      expect(resource.contents[0]).toMatchObject({
        uri: "test://static-text",
        text: "This is the content of the static text resource.",
      });

      const prompt = await client.getPrompt({
        name: "test_prompt_with_arguments",
        arguments: { arg1: "first", arg2: "second" },
      });
      expect(JSON.stringify(prompt.messages)).toContain("first");

      await client.close();
    });

    // SDK 1.x drops a progress notification that arrives in the same read as its result
    // (typescript-sdk issue 2580); the sample backend pauses after each report so that never
    // happens. The default pause (50 ms) is enough on an idle machine; a loaded CI machine can stall
    // this process longer than that, so the test asks for 200 ms and checks the flag took effect.
    it("sees all three progress notifications of test_tool_with_progress", async () => {
      const stepDelayMs = 200;
      const served = await serve(["--step-delay-ms", String(stepDelayMs)]);
      started.push(served);
      const client = new Client({ name: "sdk-interop", version: "1.0.0" });
      const errors: Error[] = [];
      client.onerror = (error) => errors.push(error);
      await client.connect(served.transport);
      served.childPid = served.pid?.();

      const updates: Progress[] = [];
      const startedAt = performance.now();
      const result = await client.callTool(
        { name: "test_tool_with_progress" },
        CallToolResultSchema,
        { onprogress: (update) => updates.push(update) },
      );
      expect(updates.map(({ progress, total }) => [progress, total])).toEqual([
        [0, 100],
        [50, 100],
        [100, 100],
      ]);
      expect(result.isError).not.toBe(true);
      // A lower bound only (timers never fire early; 5 ms for clocks of two processes).
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(3 * stepDelayMs - 5);
      expect(errors.map(String)).not.toContainEqual(expect.stringMatching(/unknown token/));
      await client.close();
    });

    it("cancels a call mid-way when the caller aborts after it started", async () => {
      const served = await serve();
      started.push(served);
      const client = new Client({ name: "sdk-interop", version: "1.0.0" });
      await client.connect(served.transport);
      served.childPid = served.pid?.();
      const cancelledLog = new Promise<string>((resolve) => {
        client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
          if (/cancelled/.test(String(params.data))) resolve(String(params.data));
        });
      });

      const controller = new AbortController();
      const seen: number[] = [];
      const outcome = client
        .callTool({ name: "long_task", arguments: { steps: 3, stepMs: 60_000 } }, undefined, {
          signal: controller.signal,
          // The first report means the tool is running: abort then.
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
      // The tool itself saw the cancellation (it logs where it stopped) and never finished.
      expect(await cancelledLog).toBe("long_task cancelled at step 1 of 3");
      await client.close();
    });
  },
);

describe("2025-11-25 tasks: the official SDK 1.x client and the sample backend over stdio", () => {
  it("runs slow_compute as a task to its result and cancels a running one", async () => {
    const served = await transports["stdio (the SDK's StdioClientTransport spawning the bin)"]!([
      "--task-second-ms",
      "20",
    ]);
    started.push(served);
    const client = new Client(
      { name: "sdk-tasks", version: "1.0.0" },
      { capabilities: { tasks: { list: {}, cancel: {} } } },
    );
    await client.connect(served.transport);
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const tasks = client.experimental.tasks;
    const messages = [];
    const stream = tasks.callToolStream(
      { name: "slow_compute", arguments: { seconds: 1, label: "sdk" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    for await (const message of stream) messages.push(message);
    const created = messages[0];
    if (created?.type !== "taskCreated") throw new Error(`expected a task, got ${created?.type}`);
    const result = messages.at(-1);
    if (result?.type !== "result") throw new Error(`expected a result, got ${result?.type}`);
    expect(result.result.content).toEqual([{ type: "text", text: "Computed sdk in 1s" }]);
    expect(await tasks.getTask(created.task.taskId)).toMatchObject({ status: "completed" });

    const running = await client.request(
      {
        method: "tools/call",
        params: { name: "slow_compute", arguments: { seconds: 600 }, task: {} },
      },
      CreateTaskResultSchema,
    );
    expect(await tasks.cancelTask(running.task.taskId)).toMatchObject({ status: "cancelled" });
    await client.close();
  }, 15_000);
});
