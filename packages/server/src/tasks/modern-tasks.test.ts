import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { createServer } from "../create-server.js";

const TASKS = "io.modelcontextprotocol/tasks";
const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };

/** Lets the microtasks of a resolved gate run (the task records its outcome after the handler). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function createTaskServer(clock = { now: () => 5_000 }) {
  const server = createServer({
    name: "tasks-test",
    version: "1.0.0",
    modern: { tasks: { ttlMs: 10_000, pollIntervalMs: 250, now: () => clock.now() } },
  });
  const work = gate();
  let aborted: unknown;
  server.registerTool("sync_only", {}, () => ({ content: [{ type: "text", text: "sync" }] }));
  server.registerTool("job", { taskSupport: "optional" }, async (_args, context) => {
    context.signal.addEventListener("abort", () => {
      aborted = context.signal.reason;
    });
    await work.opened;
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("must_be_task", { taskSupport: "required" }, () => {
    throw new JSONRPCError(-32603, "broken on purpose");
  });
  server.registerTool("throws", { taskSupport: "optional" }, () => {
    throw new Error("tool failed");
  });
  server.registerTool("asks", { taskSupport: "optional" }, async (_args, context) => {
    const answer = await context.elicit({
      mode: "form",
      message: "ok?",
      requestedSchema: { type: "object", properties: {} },
    });
    return { content: [{ type: "text", text: `answer ${answer.action}` }] };
  });
  server.registerTool(
    "asks_first",
    { taskSupport: "required", deferTask: true },
    async (_args, context) => {
      const answer = await context.elicit(
        { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } },
        { inputKey: "user_name" },
      );
      await context.startTask?.();
      return { content: [{ type: "text", text: `Hi ${String(answer.content?.name)}` }] };
    },
  );
  const call = async (
    method: string,
    params: Record<string, unknown>,
    capabilities: Record<string, unknown> = WITH_TASKS,
    authInfo?: unknown,
  ): Promise<Record<string, unknown>> => {
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    };
    const response = await server.modern.handle(
      { jsonrpc: "2.0", id: 1, method, params: { _meta, ...params } },
      {
        signal: new AbortController().signal,
        notify: () => undefined,
        ...(authInfo === undefined ? {} : { info: { extra: { authInfo } } }),
      },
    );
    if (response === undefined) throw new Error("no response");
    return ("result" in response ? response.result : { error: response.error }) as Record<
      string,
      unknown
    >;
  };
  return { server, call, work, aborted: () => aborted };
}

describe("tasks (extension io.modelcontextprotocol/tasks, 2026-07-28)", () => {
  it("advertises the extension and answers a declaring client's call with a task", async () => {
    const { call, work } = createTaskServer();
    const discover = await call("server/discover", {});
    expect(discover.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
    const created = await call("tools/call", { name: "job" });
    expect(created).toMatchObject({
      resultType: "task",
      status: "working",
      createdAt: new Date(5_000).toISOString(),
      ttlMs: 10_000,
      pollIntervalMs: 250,
    });
    expect(created).not.toHaveProperty("result");
    const taskId = created.taskId;
    expect(await call("tasks/get", { taskId })).toMatchObject({ status: "working", taskId });
    work.open();
    await settle();
    expect(await call("tasks/get", { taskId })).toMatchObject({
      resultType: "complete",
      status: "completed",
      result: { content: [{ type: "text", text: "done" }] },
    });
  });

  it("runs an optional task tool directly for a client without the extension", async () => {
    const { call, work } = createTaskServer();
    work.open();
    const result = await call("tools/call", { name: "job" }, {});
    expect(result).toMatchObject({ resultType: "complete", content: [{ text: "done" }] });
    expect(result).not.toHaveProperty("taskId");
    expect(await call("tools/call", { name: "sync_only" })).toMatchObject({
      resultType: "complete",
    });
  });

  it("answers -32021 naming the extension for a required task tool or tasks/* without it", async () => {
    const { call } = createTaskServer();
    const required = { requiredCapabilities: { extensions: { [TASKS]: {} } } };
    expect(await call("tools/call", { name: "must_be_task" }, {})).toMatchObject({
      error: { code: -32021, data: required },
    });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      expect(await call(method, { taskId: "x", inputResponses: {} }, {})).toMatchObject({
        error: { code: -32021, data: required },
      });
    }
    expect(await call("tasks/list", {})).toMatchObject({ error: { code: -32601 } });
    expect(await call("tasks/result", { taskId: "x" })).toMatchObject({ error: { code: -32601 } });
    expect(await call("tasks/get", { taskId: "x" })).toMatchObject({ error: { code: -32602 } });
  });

  it("ends a task failed on a protocol error and completed with isError on a tool error", async () => {
    const { call } = createTaskServer();
    const failed = await call("tools/call", { name: "must_be_task" });
    const toolError = await call("tools/call", { name: "throws" });
    await settle();
    const failedTask = await call("tasks/get", { taskId: failed.taskId });
    expect(failedTask).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "broken on purpose" },
    });
    expect(failedTask).not.toHaveProperty("result");
    expect(await call("tasks/get", { taskId: toolError.taskId })).toMatchObject({
      status: "completed",
      result: { isError: true, content: [{ text: "tool failed" }] },
    });
  });

  it("parks a task on input_required and resumes it with tasks/update", async () => {
    const { call } = createTaskServer();
    const { taskId } = await call("tools/call", { name: "asks" });
    await settle();
    const parked = await call("tasks/get", { taskId });
    expect(parked).toMatchObject({
      status: "input_required",
      inputRequests: { "elicitation-1": { method: "elicitation/create" } },
    });
    expect(parked).not.toHaveProperty("requestState");
    expect(
      await call("tasks/update", {
        taskId,
        inputResponses: { "elicitation-1": { action: "nope" } },
      }),
    ).toMatchObject({ error: { code: -32602 } });
    const ack = await call("tasks/update", {
      taskId,
      inputResponses: { "elicitation-1": { action: "decline" } },
    });
    expect(Object.keys(ack).sort()).toEqual(["_meta", "resultType"]);
    await settle();
    expect(await call("tasks/get", { taskId })).toMatchObject({
      status: "completed",
      result: { content: [{ text: "answer decline" }] },
    });
  });

  it("cancels a running task: its handler's signal aborts and the status stays cancelled", async () => {
    const { call, work, aborted } = createTaskServer();
    const { taskId } = await call("tools/call", { name: "job" });
    expect(await call("tasks/cancel", { taskId })).toMatchObject({ resultType: "complete" });
    expect(aborted()).toBeDefined();
    work.open();
    await settle();
    expect(await call("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
    expect(await call("tasks/cancel", { taskId })).toMatchObject({ resultType: "complete" });
  });

  it("gathers input by MRTR rounds before a deferred task starts", async () => {
    const { call } = createTaskServer();
    const round1 = await call("tools/call", { name: "asks_first" });
    expect(round1).toMatchObject({
      resultType: "input_required",
      inputRequests: { user_name: {} },
    });
    expect(round1).not.toHaveProperty("taskId");
    const round2 = await call("tools/call", {
      name: "asks_first",
      requestState: round1.requestState,
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    });
    expect(round2).toMatchObject({ resultType: "task", status: "working" });
    expect(round2).not.toHaveProperty("requestState");
    await settle();
    expect(await call("tasks/get", { taskId: round2.taskId })).toMatchObject({
      status: "completed",
      result: { content: [{ text: "Hi Alice" }] },
    });
  });

  it("keeps tasks to their owner (the request's authInfo) and expires them after ttlMs", async () => {
    let now = 5_000;
    const { call } = createTaskServer({ now: () => now });
    const alice = { clientId: "alice", scopes: ["a", "b"] };
    const { taskId } = await call("tools/call", { name: "job" }, WITH_TASKS, alice);
    const sameAlice = { scopes: ["a", "b"], clientId: "alice" };
    expect(await call("tasks/get", { taskId }, WITH_TASKS, sameAlice)).toMatchObject({ taskId });
    expect(await call("tasks/get", { taskId }, WITH_TASKS, { clientId: "bob" })).toMatchObject({
      error: { code: -32602 },
    });
    expect(await call("tasks/get", { taskId })).toMatchObject({ error: { code: -32602 } });
    now += 10_000;
    expect(await call("tasks/get", { taskId }, WITH_TASKS, alice)).toMatchObject({
      error: { code: -32602 },
    });
  });
});
