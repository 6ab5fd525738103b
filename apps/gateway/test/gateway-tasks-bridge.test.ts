import { type Client, createClient } from "@patchbay/client";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, gatewayCli, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** Connects `client` through a stdio gateway to the sample backend serving only `revision`. */
async function connectThroughGateway(client: Client, revision: string): Promise<void> {
  const path = writeConfig(temporaryDirectory(), {
    mcpServers: {
      sample: {
        command: process.execPath,
        args: [backends.sample, "--protocol-versions", revision, "--task-second-ms", "20"],
      },
    },
  });
  await client.connect(
    createStdioClientTransport({
      command: process.execPath,
      args: [gatewayCli, "--config", path],
      stderr: "ignore",
    }),
  );
}

describe("a 2025-11-25 client's tasks through the stdio gateway to a 2026-07-28 sample backend", () => {
  let client: Client;
  const statuses: v2025_11_25.Task[] = [];
  const asked: Record<string, unknown>[] = [];

  beforeAll(async () => {
    client = createClient(
      { name: "bridge-test", version: "1.0.0" },
      {
        capabilities: { tasks: TASKS_CAPABILITY },
        protocolVersion: "2025-11-25",
        elicitation: async (params) => {
          asked.push(params as Record<string, unknown>);
          return { action: "accept", content: { confirm: true } };
        },
      },
    );
    client.on("notifications/tasks/status", (task) => {
      statuses.push(task);
    });
    await connectThroughGateway(client, "2026-07-28");
  }, 30_000);

  afterAll(async () => {
    await client?.close();
  });

  it("offers 2025-11-25 tasks and runs slow_compute as a task to its result", async () => {
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverCapabilities?.tasks).toEqual(TASKS_CAPABILITY);
    const created = await client.callToolAsTask(
      { name: "sample__slow_compute", arguments: { seconds: 2, label: "bridged" } },
      { ttl: 60_000 },
    );
    const { taskId } = created.task;
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(created.task).toMatchObject({ status: "working", ttl: 60_000 });
    expect(await client.getTaskResult(taskId)).toEqual({
      content: [{ type: "text", text: "Computed bridged in 2s" }],
      _meta: { [RELATED_TASK]: { taskId } },
    });
    // The gateway tells each status it sees before the answer it leads to.
    expect(statuses).toContainEqual(expect.objectContaining({ taskId, status: "completed" }));
    expect(await client.getTask(taskId)).toMatchObject({ taskId, status: "completed" });
    const { tasks } = await client.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(taskId);
  }, 15_000);

  it("asks the client what a task needs (elicitation naming the task) and runs it to its result", async () => {
    const { task } = await client.callToolAsTask({
      name: "sample__confirm_delete",
      arguments: { filename: "notes.txt" },
    });
    expect(await client.getTaskResult(task.taskId)).toMatchObject({
      content: [{ type: "text", text: "Deleted notes.txt" }],
    });
    expect(asked).toEqual([
      expect.objectContaining({
        message: "Delete notes.txt?",
        _meta: expect.objectContaining({ [RELATED_TASK]: { taskId: task.taskId } }),
      }),
    ]);
    // Two questions at once: both asked, both answered in one tasks/update.
    const both = await client.callToolAsTask({ name: "sample__multi_input" });
    expect(await client.getTaskResult(both.task.taskId)).toMatchObject({
      content: [{ type: "text", text: "Answers: accept, accept" }],
    });
    expect(asked).toHaveLength(3);
  }, 15_000);

  it("cancels a running bridged task at the backend", async () => {
    const { task } = await client.callToolAsTask({
      name: "sample__slow_compute",
      arguments: { seconds: 600 },
    });
    expect(await client.cancelTask(task.taskId)).toMatchObject({
      taskId: task.taskId,
      status: "cancelled",
    });
    expect(statuses).toContainEqual(
      expect.objectContaining({ taskId: task.taskId, status: "cancelled" }),
    );
    expect(await client.getTask(task.taskId)).toMatchObject({ status: "cancelled" });
    await expect(client.getTaskResult(task.taskId)).rejects.toMatchObject({ code: -32603 });
    await expect(client.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
  }, 15_000);
});

describe("a 2026-07-28 client's tasks through the stdio gateway to a 2025-11-25 sample backend", () => {
  let client: Client;
  // The extension, and elicitation: the backend's confirm_delete asks during its task, which the
  // router refuses for a caller that did not declare it.
  const WITH_TASKS = {
    extensions: { "io.modelcontextprotocol/tasks": {} },
    capabilities: { elicitation: {} },
  };
  const request = (method: string, params: Record<string, unknown>) =>
    client.request(method, params, WITH_TASKS) as Promise<Record<string, unknown>>;

  beforeAll(async () => {
    client = createClient({ name: "bridge-test", version: "1.0.0" }, { protocolEra: "modern" });
    await connectThroughGateway(client, "2025-11-25");
  }, 30_000);

  afterAll(async () => {
    await client?.close();
  });

  it("runs slow_compute as the extension's task on the 2025-11-25 backend, and cancels one", async () => {
    expect(client.protocolEra).toBe("modern");
    const created = await request("tools/call", {
      name: "sample__slow_compute",
      arguments: { seconds: 1, label: "reverse" },
    });
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.taskId;
    // The extension has no blocking read: a client polls tasks/get, as this does.
    let detail = await request("tasks/get", { taskId });
    while (detail.status === "working") detail = await request("tasks/get", { taskId });
    expect(detail).toMatchObject({
      taskId,
      status: "completed",
      result: { content: [{ type: "text", text: "Computed reverse in 1s" }] },
    });

    // What the backend asks during the task is its input: tasks/get shows it, tasks/update answers.
    const asking = await request("tools/call", {
      name: "sample__confirm_delete",
      arguments: { filename: "old.txt" },
    });
    do detail = await request("tasks/get", { taskId: asking.taskId });
    while (detail.inputRequests === undefined && detail.status !== "failed");
    const [key, input] = Object.entries(detail.inputRequests as Record<string, unknown>)[0] ?? [];
    expect(input).toMatchObject({
      method: "elicitation/create",
      params: { message: "Delete old.txt?" },
    });
    await request("tasks/update", {
      taskId: asking.taskId,
      inputResponses: { [key as string]: { action: "accept", content: { confirm: true } } },
    });
    do detail = await request("tasks/get", { taskId: asking.taskId });
    while (detail.status === "working" || detail.status === "input_required");
    expect(detail).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "Deleted old.txt" }] },
    });

    const running = await request("tools/call", {
      name: "sample__slow_compute",
      arguments: { seconds: 600 },
    });
    await request("tasks/cancel", { taskId: running.taskId });
    expect(await request("tasks/get", { taskId: running.taskId })).toMatchObject({
      status: "cancelled",
    });
  }, 15_000);
});
