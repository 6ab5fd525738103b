import {
  CallToolResultSchema,
  type Task,
  TaskStatusNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

type Connected = Awaited<ReturnType<typeof connectGateway>>;

const TOOL = "everything__simulate-research-query";

/** What a 2025-11-25 client declares to use tasks (it receives none itself). */
const CLIENT_TASKS = { tasks: { list: {}, cancel: {} } };

describe("2025-11-25 tasks: the official SDK client through the stdio gateway to server-everything", () => {
  const directory = temporaryDirectory();
  let gateway: Connected;
  const statuses: Task[] = [];
  let completed!: Promise<Task>;

  beforeAll(async () => {
    const path = writeConfig(directory, {
      mcpServers: { everything: { command: process.execPath, args: [backends.everything] } },
    });
    gateway = await connectGateway(path, { capabilities: CLIENT_TASKS });
    completed = new Promise((resolve) => {
      gateway.client.setNotificationHandler(TaskStatusNotificationSchema, ({ params }) => {
        statuses.push(params);
        if (params.status === "completed") resolve(params);
      });
    });
  }, 20_000);

  afterAll(async () => {
    // About 2 s: server-everything keeps each task's TTL timer and does not exit when its stdin
    // ends, so the gateway stops it after its grace period.
    await gateway?.client.close();
  });

  it("runs simulate-research-query as a task to completion under the gateway's task id", async () => {
    expect(gateway.client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await gateway.client.listTools();
    expect(tools.find((tool) => tool.name === TOOL)?.execution).toEqual({
      taskSupport: "required",
    });

    const messages = [];
    const stream = gateway.client.experimental.tasks.callToolStream(
      { name: TOOL, arguments: { topic: "routers" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    for await (const message of stream) messages.push(message);
    const created = messages[0];
    if (created?.type !== "taskCreated") throw new Error(`expected a task, got ${created?.type}`);
    const { taskId } = created.task;
    // The gateway's id (128 random bits), not server-everything's UUID.
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    const result = messages.at(-1);
    if (result?.type !== "result") throw new Error(`expected a result, got ${result?.type}`);
    expect(JSON.stringify(result.result.content)).toContain("Research Report: routers");

    const tasks = gateway.client.experimental.tasks;
    expect(await tasks.getTask(taskId)).toMatchObject({ taskId, status: "completed" });
    const again = await tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(again.content).toEqual(result.result.content);
    const listed = await tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toEqual([taskId]);

    // Status notifications name the task by the gateway's id, every one of them.
    expect(await completed).toMatchObject({ taskId, status: "completed" });
    for (const status of statuses) expect(status.taskId).toBe(taskId);
    // Every one arrives, the first too, which server-everything may send before its answer.
    expect(statuses.map((status) => [status.status, status.statusMessage])).toEqual([
      ["working", "Gathering sources..."],
      ["working", "Analyzing content..."],
      ["working", "Synthesizing findings..."],
      ["working", "Generating report..."],
      ["completed", "Generating report..."],
    ]);
  }, 20_000);
});
