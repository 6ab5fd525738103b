import { createRequire } from "node:module";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSdk, connectSdk, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

/** What a 2025-11-25 client declares to use tasks (it receives none itself). */
const CLIENT_TASKS = { tasks: { list: {}, cancel: {} } };

let proxy: TestProxy;
beforeAll(async () => {
  // One server-everything process for every session: its own tasks/list would show them all.
  proxy = await startTestProxy({
    mcpServers: { everything: { command: process.execPath, args: [everything] } },
    modern: { tasks: { maxTasksPerCaller: 1 } },
  });
}, 20_000);
afterAll(() => proxy?.stop());

describe("2025-11-25 tasks through the proxy (Streamable HTTP, the official SDK client)", () => {
  it("runs simulate-research-query as a task to completion, seen by its session only", async () => {
    const alice = await connectSdk(proxy.url, { capabilities: CLIENT_TASKS, name: "alice" });
    const bob = await connectSdk(proxy.url, { capabilities: CLIENT_TASKS, name: "bob" });
    try {
      const messages = [];
      const stream = alice.client.experimental.tasks.callToolStream(
        { name: "everything__simulate-research-query", arguments: { topic: "proxies" } },
        CallToolResultSchema,
        { task: { ttl: 60_000 } },
      );
      for await (const message of stream) messages.push(message);
      const created = messages[0];
      if (created?.type !== "taskCreated") throw new Error(`expected a task, got ${created?.type}`);
      const { taskId } = created.task;
      expect(taskId).toMatch(/^[0-9a-f]{32}$/);
      const result = messages.at(-1);
      if (result?.type !== "result") throw new Error(`expected a result, got ${result?.type}`);
      expect(JSON.stringify(result.result.content)).toContain("Research Report: proxies");

      const aliceTasks = await alice.client.experimental.tasks.listTasks();
      expect(aliceTasks.tasks.map((task) => task.taskId)).toEqual([taskId]);
      const bobTasks = bob.client.experimental.tasks;
      expect((await bobTasks.listTasks()).tasks).toEqual([]);
      await expect(bobTasks.getTask(taskId)).rejects.toThrow(`Unknown task: ${taskId}`);
      await expect(bobTasks.getTaskResult(taskId, CallToolResultSchema)).rejects.toThrow(
        `Unknown task: ${taskId}`,
      );
    } finally {
      await closeSdk(alice);
      await closeSdk(bob);
    }
  }, 20_000);

  it("holds the file's modern.tasks.maxTasksPerCaller: a second live task of a session is refused", async () => {
    const carol = await connectSdk(proxy.url, { capabilities: CLIENT_TASKS, name: "carol" });
    const call = () =>
      carol.client.request(
        {
          method: "tools/call",
          params: { name: "everything__simulate-research-query", arguments: { topic: "limits" } },
        },
        CreateTaskResultSchema,
        { task: { ttl: 60_000 } },
      );
    try {
      expect((await call()).task.taskId).toMatch(/^[0-9a-f]{32}$/);
      await expect(call()).rejects.toThrow("maximum of 1 live tasks");
    } finally {
      await closeSdk(carol);
    }
  }, 10_000);
});
