import { JSONRPCError } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
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

/**
 * Two task tools: `job` answers `done` once `work` opens (and reports its abort), `boom` fails
 * with -32050 and `failure`.
 */
function defineJobs(work: ReturnType<typeof gate>, done: string, failure: string) {
  return (server: Server) => {
    server.registerTool("job", { taskSupport: "optional" }, async (_args, context) => {
      context.signal.addEventListener("abort", () => work.aborted());
      await work.opened;
      return { content: [{ type: "text", text: done }] };
    });
    server.registerTool("boom", { taskSupport: "required" }, () => {
      throw new JSONRPCError(-32050, failure);
    });
  };
}

/** A modern-only (2026-07-28) backend whose tools run as tasks of the extension. */
async function bridgeHarness() {
  const work = gate();
  harness = await createHarness(
    { mcpServers: { modern: { command: "x" } } },
    {
      modern: defineJobs(work, "job done", "boom on purpose"),
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

/** A task tool `greet` that asks the client for a name (an input request) and greets it. */
function defineGreeter(server: Server): void {
  server.registerTool("greet", { taskSupport: "required" }, async (_args, context) => {
    const answer = await context.elicit({
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return { content: [{ type: "text", text: `Hello, ${String(answer.content?.name)}` }] };
  });
}

/** A 2026-07-28 backend whose task tool asks the client for a name (an input request). */
async function askingHarness(client: Record<string, unknown>) {
  harness = await createHarness(
    { mcpServers: { modern: { command: "x" } } },
    {
      modern: defineGreeter,
    },
    { ...LEGACY_CLIENT, client: { ...LEGACY_CLIENT.client, ...client } },
  );
  return harness;
}

describe("a 2025-11-25 client answering a bridged task's input requests", () => {
  it("asks the session what the task needs, naming the task, and the task runs to its result", async () => {
    const asked: Record<string, unknown>[] = [];
    const { client } = await askingHarness({
      elicitation: async (params: Record<string, unknown>) => {
        asked.push(params);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    const { task } = await client.callToolAsTask({ name: "modern__greet" });
    expect(await client.getTaskResult(task.taskId)).toEqual({
      content: [{ type: "text", text: "Hello, Ada" }],
      _meta: { [RELATED_TASK]: { taskId: task.taskId } },
    });
    expect(asked).toEqual([
      expect.objectContaining({
        message: "Your name?",
        _meta: expect.objectContaining({ [RELATED_TASK]: { taskId: task.taskId } }),
      }),
    ]);
    expect(await client.getTask(task.taskId)).toMatchObject({ status: "completed" });
  });

  it("fails the task's input clearly for a session without the elicitation capability", async () => {
    const { client } = await askingHarness({});
    const { task } = await client.callToolAsTask({ name: "modern__greet" });
    await expect(client.getTaskResult(task.taskId)).rejects.toMatchObject({
      code: -32005,
      message: expect.stringContaining("no elicitation capability"),
    });
    expect(await client.getTask(task.taskId)).toMatchObject({ status: "cancelled" });
  });
});

/** One 2026-07-28 request to the router's modern front as `caller`, declaring the extension. */
const sendModern = (
  method: string,
  params: Record<string, unknown>,
  caller = "alice",
  capabilities?: Record<string, unknown>,
) =>
  send(harness!.router.modern(), method, params, {
    caller,
    ...(capabilities === undefined ? {} : { capabilities }),
  });
/** A modern caller declaring the tasks extension and elicitation. */
const ELICITING = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };

/**
 * Polls the extension's `tasks/get` (it has no push) until `done` holds, letting timers run between
 * polls (so a test's timeout still fires).
 */
async function pollTask(taskId: unknown, done: (detail: Record<string, unknown>) => boolean) {
  for (;;) {
    const { result, error } = await sendModern("tasks/get", { taskId });
    if (result === undefined) throw new Error(`tasks/get failed: ${JSON.stringify(error)}`);
    if (done(result)) return result;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A 2025-11-25 backend whose task tool `greet` asks the client for a name. */
async function greeterHarness() {
  harness = await createHarness(
    { mcpServers: { legacy: { command: "x" } } },
    {
      legacy: defineGreeter,
    },
    { client: { protocolVersion: "2025-11-25" } },
  );
}

describe("a 2026-07-28 client's tasks on a 2025-11-25 backend (bridged by the router)", () => {
  /** A legacy-only backend (2025-11-25, tasks from @patchbay/server) behind the modern front. */
  async function legacyBackendHarness() {
    const work = gate();
    harness = await createHarness(
      { mcpServers: { legacy: { command: "x" } } },
      {
        legacy: defineJobs(work, "legacy job done", "legacy boom"),
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

  it("shows what the backend asks about a task as its inputRequests, answered by tasks/update", async () => {
    await greeterHarness();
    const created = await sendModern(
      "tools/call",
      { name: "legacy__greet", arguments: {} },
      "alice",
      ELICITING,
    );
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = created.result?.taskId;
    let detail = await pollTask(
      taskId,
      (task) => task.inputRequests !== undefined || task.status === "failed",
    );
    expect(detail).toMatchObject({ taskId, status: "input_required" });
    const inputRequests = detail.inputRequests as Record<string, Record<string, unknown>>;
    const keys = Object.keys(inputRequests);
    expect(keys).toHaveLength(1);
    const key = keys[0] as string;
    expect(inputRequests[key]).toMatchObject({
      method: "elicitation/create",
      params: { message: "Your name?" },
    });
    // Another caller cannot see or answer it.
    expect(
      (await sendModern("tasks/update", { taskId, inputResponses: {} }, "bob")).error,
    ).toMatchObject({ code: -32602 });
    const malformed = { [key]: { action: "nope" } };
    expect(
      (await sendModern("tasks/update", { taskId, inputResponses: malformed })).error,
    ).toMatchObject({ code: -32602 });
    const answer = { [key]: { action: "accept", content: { name: "Ada" } } };
    expect(
      (await sendModern("tasks/update", { taskId, inputResponses: answer })).result,
    ).toMatchObject({ resultType: "complete" });
    detail = await pollTask(
      taskId,
      (task) => task.status !== "working" && task.status !== "input_required",
    );
    expect(detail).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "Hello, Ada" }] },
    });
  });

  it("refuses what the backend asks when the call declared no such capability; the task fails naming it", async () => {
    await greeterHarness();
    const created = await sendModern("tools/call", { name: "legacy__greet", arguments: {} });
    expect(created.result).toMatchObject({ resultType: "task" });
    const detail = await pollTask(
      created.result?.taskId,
      (task) => task.inputRequests !== undefined || task.status === "failed",
    );
    expect(detail).not.toHaveProperty("inputRequests");
    expect(detail).toMatchObject({
      status: "failed",
      error: { message: expect.stringContaining("declared no elicitation capability") },
    });
  });

  it("rejects the backend's pending request when the task is cancelled", async () => {
    const failed = gate();
    harness = await createHarness(
      { mcpServers: { legacy: { command: "x" } } },
      {
        legacy: (server) => {
          server.registerTool("greet", { taskSupport: "required" }, async (_args, context) => {
            try {
              await context.elicit({
                mode: "form",
                message: "Your name?",
                requestedSchema: { type: "object", properties: {} },
              });
            } catch (error) {
              failed.open();
              throw error;
            }
            return { content: [] };
          });
        },
      },
      { client: { protocolVersion: "2025-11-25" } },
    );
    const created = await sendModern(
      "tools/call",
      { name: "legacy__greet", arguments: {} },
      "alice",
      ELICITING,
    );
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = created.result?.taskId;
    const pending = await pollTask(
      taskId,
      (task) => task.inputRequests !== undefined || task.status === "failed",
    );
    expect(pending).toMatchObject({ status: "input_required" });
    expect((await sendModern("tasks/cancel", { taskId })).error).toBeUndefined();
    await failed.opened;
    const detail = (await sendModern("tasks/get", { taskId })).result;
    expect(detail).toMatchObject({ status: "cancelled" });
    expect(detail).not.toHaveProperty("inputRequests");
  });
});
