import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness, sendModern as send } from "./harness.js";

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
const LEGACY_CLIENT = {
  client: { capabilities: { tasks: TASKS_CAPABILITY }, protocolVersion: "2025-11-25" },
  backendVersions: ["2026-07-28"],
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let aborted!: () => void;
  const abortedOnce = new Promise<void>((resolve) => {
    aborted = resolve;
  });
  return { open, opened, aborted, abortedOnce };
}

/** A modern-only (2026-07-28) backend whose tools run as tasks of the extension. */
async function bridgeHarness() {
  const work = gate();
  harness = await createHarness(
    { mcpServers: { modern: { command: "x" } } },
    {
      modern: (server) => {
        server.registerTool("job", { taskSupport: "optional" }, async (_args, context) => {
          context.signal.addEventListener("abort", () => work.aborted());
          await work.opened;
          return { content: [{ type: "text", text: "job done" }] };
        });
        server.registerTool("boom", { taskSupport: "required" }, () => {
          throw new JSONRPCError(-32050, "boom on purpose");
        });
      },
    },
    LEGACY_CLIENT,
  );
  return { harness, work };
}

describe("a 2025-11-25 client's tasks on a 2026-07-28 backend (bridged by the router)", () => {
  it("offers tasks and runs a task to completion in the 2025-11-25 shape", async () => {
    const { harness, work } = await bridgeHarness();
    const { client } = harness;
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverCapabilities?.tasks).toEqual(TASKS_CAPABILITY);
    const created = await client.callToolAsTask({ name: "modern__job" }, { ttl: 30_000 });
    const { taskId } = created.task;
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(created.task).toMatchObject({ status: "working", ttl: 30_000 });
    expect(created.task).not.toHaveProperty("ttlMs");
    expect(await client.getTask(taskId)).toMatchObject({ taskId, status: "working" });
    const completed = new Promise<Record<string, unknown>>((resolve) => {
      client.on("notifications/tasks/status", (task) => {
        if (task.status === "completed") resolve(task);
      });
    });
    work.open();
    expect(await client.getTaskResult(taskId)).toEqual({
      content: [{ type: "text", text: "job done" }],
      _meta: { [RELATED_TASK]: { taskId } },
    });
    expect(await completed).toMatchObject({ taskId, status: "completed" });
    const { tasks } = await client.listTasks();
    expect(tasks).toEqual([expect.objectContaining({ taskId, status: "completed" })]);
    expect(tasks[0]).not.toHaveProperty("result");
  });

  it("cancels a bridged task at the backend; another session's id is unknown", async () => {
    const { harness, work } = await bridgeHarness();
    const { client } = harness;
    const { task } = await client.callToolAsTask({ name: "modern__job" });
    const other = await harness.connectClient(LEGACY_CLIENT.client);
    await expect(other.getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(other.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    expect((await other.listTasks()).tasks).toEqual([]);
    expect(await client.cancelTask(task.taskId)).toMatchObject({
      taskId: task.taskId,
      status: "cancelled",
    });
    await work.abortedOnce;
    await expect(client.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it("hands on a failed task's protocol error from tasks/result", async () => {
    const { harness } = await bridgeHarness();
    const { task } = await harness.client.callToolAsTask({ name: "modern__boom" });
    await expect(harness.client.getTaskResult(task.taskId)).rejects.toMatchObject({
      code: -32050,
      message: "boom on purpose",
    });
    expect(await harness.client.getTask(task.taskId)).toMatchObject({
      status: "failed",
      statusMessage: "boom on purpose",
    });
  });
});

/** One 2026-07-28 request to the router's modern front as `caller`, declaring the extension. */
const sendModern = (method: string, params: Record<string, unknown>, caller = "alice") =>
  send(harness!.router.modern(), method, params, { caller });

describe("a 2026-07-28 client's tasks on a 2025-11-25 backend (bridged by the router)", () => {
  /** A legacy-only backend (2025-11-25, tasks from @patchbay/server) behind the modern front. */
  async function legacyBackendHarness() {
    const work = gate();
    harness = await createHarness(
      { mcpServers: { legacy: { command: "x" } } },
      {
        legacy: (server) => {
          server.registerTool("job", { taskSupport: "optional" }, async (_args, context) => {
            context.signal.addEventListener("abort", () => work.aborted());
            await work.opened;
            return { content: [{ type: "text", text: "legacy job done" }] };
          });
          server.registerTool("boom", { taskSupport: "required" }, () => {
            throw new JSONRPCError(-32050, "legacy boom");
          });
        },
      },
      { client: { protocolVersion: "2025-11-25" } },
    );
    return work;
  }

  it("advertises the extension and runs a task to its inlined result", async () => {
    const work = await legacyBackendHarness();
    const discover = await sendModern("server/discover", {});
    expect(discover.result?.capabilities).toMatchObject({
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    const created = await sendModern("tools/call", { name: "legacy__job", arguments: {} });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.result?.taskId;
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    expect((await sendModern("tasks/get", { taskId })).result).toMatchObject({
      taskId,
      status: "working",
    });
    work.open();
    let detail: Record<string, unknown> | undefined;
    do detail = (await sendModern("tasks/get", { taskId })).result;
    while (detail?.status === "working");
    expect(detail).toMatchObject({
      taskId,
      status: "completed",
      result: { content: [{ type: "text", text: "legacy job done" }] },
    });
    expect((await sendModern("tasks/get", { taskId }, "bob")).error).toMatchObject({
      code: -32602,
    });
  });

  it("answers -32021 naming the extension for a required task tool called without it", async () => {
    await legacyBackendHarness();
    const called = await send(
      harness!.router.modern(),
      "tools/call",
      { name: "legacy__boom", arguments: {} },
      { capabilities: {} },
    );
    expect(called.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
  });

  it("cancels at the backend (idempotent) and inlines a failed task's error", async () => {
    const work = await legacyBackendHarness();
    const created = await sendModern("tools/call", { name: "legacy__job", arguments: {} });
    const taskId = created.result?.taskId;
    expect((await sendModern("tasks/cancel", { taskId })).error).toBeUndefined();
    await work.abortedOnce;
    expect((await sendModern("tasks/cancel", { taskId })).error).toBeUndefined();
    expect((await sendModern("tasks/get", { taskId })).result).toMatchObject({
      status: "cancelled",
    });
    const failed = await sendModern("tools/call", { name: "legacy__boom", arguments: {} });
    let detail: Record<string, unknown> | undefined;
    do detail = (await sendModern("tasks/get", { taskId: failed.result?.taskId })).result;
    while (detail?.status === "working");
    expect(detail).toMatchObject({
      status: "failed",
      error: { code: -32050, message: expect.stringContaining("legacy boom") },
    });
  });
});
