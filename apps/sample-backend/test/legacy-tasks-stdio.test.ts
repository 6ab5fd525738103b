import { fileURLToPath } from "node:url";
import { type Client, createClient } from "@patchbay/client";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built bin (turbo builds the package before its tests): one child process for the file.
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const RELATED = "io.modelcontextprotocol/related-task";

let client: Client;
const statuses: v2025_11_25.Task[] = [];

beforeAll(async () => {
  client = createClient({ name: "legacy-tasks-test", version: "1.0.0" });
  client.on("notifications/tasks/status", (task) => {
    statuses.push(task);
  });
  await client.connect(
    createStdioClientTransport({
      command: process.execPath,
      args: [bin, "--transport", "stdio", "--task-second-ms", "20"],
      stderr: "ignore",
    }),
  );
}, 15_000);

afterAll(async () => {
  await client?.close();
});

describe("sample backend over stdio: 2025-11-25 tasks with @patchbay/client", () => {
  it("declares tasks and marks its task tools", async () => {
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverCapabilities?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const tools = await client.listAllTools();
    const execution = (name: string) => tools.find((tool) => tool.name === name)?.execution;
    expect(execution("slow_compute")).toEqual({ taskSupport: "optional" });
    expect(execution("failing_job")).toEqual({ taskSupport: "required" });
    expect(execution("greet")).toBeUndefined();
  }, 10_000);

  it("runs slow_compute as a task to completion", async () => {
    const created = await client.callToolAsTask(
      { name: "slow_compute", arguments: { seconds: 1, label: "legacy" } },
      { ttl: 60_000 },
    );
    expect(created.task).toMatchObject({ status: "working", ttl: 60_000 });
    const { taskId } = created.task;
    const result = await client.getTaskResult(taskId);
    expect(result).toEqual({
      content: [{ type: "text", text: "Computed legacy in 1s" }],
      _meta: { [RELATED]: { taskId } },
    });
    // Each status is sent before the answer it leads to, so it has arrived by now.
    expect(statuses).toContainEqual(expect.objectContaining({ taskId, status: "completed" }));
    expect(await client.getTask(taskId)).toMatchObject({ taskId, status: "completed" });
    const { tasks } = await client.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(taskId);
  }, 10_000);

  it("cancels a running task", async () => {
    const created = await client.callToolAsTask({
      name: "slow_compute",
      arguments: { seconds: 600 },
    });
    const { taskId } = created.task;
    expect(await client.cancelTask(taskId)).toMatchObject({ taskId, status: "cancelled" });
    expect(statuses).toContainEqual(expect.objectContaining({ taskId, status: "cancelled" }));
    expect(await client.getTask(taskId)).toMatchObject({ status: "cancelled" });
    await expect(client.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
  }, 10_000);

  it("refuses a required task tool called without params.task (-32601)", async () => {
    await expect(client.callTool({ name: "failing_job" })).rejects.toMatchObject({
      code: -32601,
    });
  }, 10_000);
});
