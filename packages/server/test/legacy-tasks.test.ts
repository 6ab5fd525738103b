import { type Connection, JSONRPCError } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { connectRaw, rejectionOf } from "./harness.js";

const RELATED = "io.modelcontextprotocol/related-task";
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

let server: Server;
afterEach(async () => {
  await server?.close();
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function createTaskServer(tasks = { ttlMs: 60_000, pollIntervalMs: 250 }) {
  server = createServer({ name: "legacy-tasks", version: "1.0.0", tasks });
  const work = gate();
  const aborted: unknown[] = [];
  let abortSeen!: () => void;
  const firstAbort = new Promise<void>((resolve) => {
    abortSeen = resolve;
  });
  server.registerTool("plain", {}, () => ({ content: [{ type: "text", text: "plain" }] }));
  server.registerTool("job", { taskSupport: "optional" }, async (_args, context) => {
    context.signal.addEventListener("abort", () => {
      aborted.push(context.signal.reason);
      abortSeen();
    });
    await work.opened;
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("must_be_task", { taskSupport: "required" }, () => {
    throw new JSONRPCError(-32050, "broken on purpose", { why: "test" });
  });
  return { work, aborted, firstAbort };
}

/** A raw 2025-11-25 (or older) session, its status notifications collected in order. */
async function openSession(protocolVersion = "2025-11-25") {
  const { connection } = await connectRaw(server);
  const statuses: Record<string, unknown>[] = [];
  const listeners = new Set<() => void>();
  connection.handleNotification("notifications/tasks/status", (params) => {
    statuses.push(params as Record<string, unknown>);
    for (const listener of [...listeners]) listener();
  });
  const init = (await connection.request("initialize", {
    protocolVersion,
    capabilities: { tasks: {} },
    clientInfo: { name: "raw", version: "1" },
  })) as Record<string, unknown>;
  await connection.notify("notifications/initialized");
  /** Resolves once a status notification says `status`. */
  const statusSeen = (status: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const check = () => {
        const found = statuses.find((entry) => entry.status === status);
        if (found === undefined) return;
        listeners.delete(check);
        resolve(found);
      };
      listeners.add(check);
      check();
    });
  return { connection, init, statuses, statusSeen };
}

const request = (connection: Connection, method: string, params: Record<string, unknown>) =>
  connection.request(method, params) as Promise<Record<string, unknown>>;

describe("tasks (2025-11-25) in a legacy session", () => {
  it("declares the tasks capability and taskSupport to a 2025-11-25 session only", async () => {
    createTaskServer();
    const modern = await openSession();
    expect((modern.init.capabilities as Record<string, unknown>).tasks).toEqual(TASKS_CAPABILITY);
    const { tools } = (await request(modern.connection, "tools/list", {})) as {
      tools: { name: string; execution?: unknown }[];
    };
    expect(tools.map((tool) => [tool.name, tool.execution])).toEqual([
      ["plain", undefined],
      ["job", { taskSupport: "optional" }],
      ["must_be_task", { taskSupport: "required" }],
    ]);
    const old = await openSession("2025-06-18");
    expect(old.init.capabilities).not.toHaveProperty("tasks");
    const oldTools = (await request(old.connection, "tools/list", {})) as {
      tools: { execution?: unknown }[];
    };
    expect(oldTools.tools.every((tool) => tool.execution === undefined)).toBe(true);
    const error = await rejectionOf(request(old.connection, "tasks/list", {}));
    expect(error.code).toBe(-32601);
  });

  it("answers CreateTaskResult at once, notifies the status and returns the result", async () => {
    const { work } = createTaskServer();
    const { connection, statusSeen } = await openSession();
    const created = await request(connection, "tools/call", {
      name: "job",
      arguments: {},
      task: { ttl: 5_000 },
    });
    const task = created.task as Record<string, unknown>;
    expect(task).toMatchObject({ status: "working", ttl: 5_000, pollInterval: 250 });
    expect(typeof task.taskId).toBe("string");
    expect(created).not.toHaveProperty("content");
    const { taskId } = task;
    expect(await request(connection, "tasks/get", { taskId })).toMatchObject({
      taskId,
      status: "working",
    });
    const payload = request(connection, "tasks/result", { taskId });
    work.open();
    expect(await payload).toEqual({
      content: [{ type: "text", text: "done" }],
      _meta: { [RELATED]: { taskId } },
    });
    expect(await statusSeen("completed")).toMatchObject({ taskId, status: "completed" });
    const listed = await request(connection, "tasks/list", {});
    expect(listed.tasks).toEqual([expect.objectContaining({ taskId, status: "completed" })]);
  });

  it("shows input_required while the handler asks the session, the request naming the task", async () => {
    createTaskServer();
    server.registerTool("asks", { taskSupport: "optional" }, async (_args, context) => {
      const answer = await context.elicit({
        mode: "form",
        message: "go on?",
        requestedSchema: { type: "object", properties: {} },
      });
      return { content: [{ type: "text", text: `answer ${answer.action}` }] };
    });
    const { connection } = await connectRaw(server);
    const asked = new Promise<Record<string, unknown>>((resolve) => {
      connection.handle("elicitation/create", async (params) => {
        resolve(params as Record<string, unknown>);
        return { action: "decline" };
      });
    });
    const statuses: string[] = [];
    connection.handleNotification("notifications/tasks/status", (params) => {
      statuses.push(String((params as { status: unknown }).status));
    });
    await connection.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {}, tasks: {} },
      clientInfo: { name: "raw", version: "1" },
    });
    await connection.notify("notifications/initialized");
    const created = await request(connection, "tools/call", { name: "asks", task: {} });
    const { taskId } = created.task as { taskId: string };
    expect((await asked)._meta).toMatchObject({ [RELATED]: { taskId } });
    expect(await request(connection, "tasks/result", { taskId })).toMatchObject({
      content: [{ type: "text", text: "answer decline" }],
    });
    expect(statuses).toEqual(["input_required", "working", "completed"]);
  });

  it("caps a requested ttl at the store's", async () => {
    createTaskServer({ ttlMs: 3_000, pollIntervalMs: 100 });
    const { connection } = await openSession();
    const created = await request(connection, "tools/call", { name: "job", task: { ttl: 99_000 } });
    expect(created.task).toMatchObject({ ttl: 3_000, pollInterval: 100 });
  });

  it("cancels a task: the handler is aborted, the status sent, a second cancel refused", async () => {
    const { aborted } = createTaskServer();
    const { connection, statusSeen } = await openSession();
    const created = await request(connection, "tools/call", { name: "job", task: {} });
    const { taskId } = created.task as { taskId: string };
    const payload = rejectionOf(request(connection, "tasks/result", { taskId }));
    expect(await request(connection, "tasks/cancel", { taskId })).toMatchObject({
      taskId,
      status: "cancelled",
    });
    expect(aborted).toHaveLength(1);
    expect(await statusSeen("cancelled")).toMatchObject({ taskId });
    expect((await payload).code).toBe(-32603);
    const again = await rejectionOf(request(connection, "tasks/cancel", { taskId }));
    expect(again.code).toBe(-32602);
  });

  it("fails a task on a protocol error and refuses a required task tool without params.task", async () => {
    createTaskServer();
    const { connection, statusSeen } = await openSession();
    const direct = await rejectionOf(request(connection, "tools/call", { name: "must_be_task" }));
    expect(direct.code).toBe(-32601);
    const created = await request(connection, "tools/call", { name: "must_be_task", task: {} });
    const { taskId } = created.task as { taskId: string };
    const error = await rejectionOf(request(connection, "tasks/result", { taskId }));
    expect(error).toMatchObject({ code: -32050, message: "broken on purpose" });
    expect(await statusSeen("failed")).toMatchObject({ statusMessage: "broken on purpose" });
    const plain = await request(connection, "tools/call", { name: "plain", task: {} });
    expect(plain).toMatchObject({ content: [{ text: "plain" }] });
  });

  it("shows a task only to the session that created it and cancels it when that session ends", async () => {
    const { aborted, firstAbort } = createTaskServer();
    const owner = await openSession();
    const other = await openSession();
    const created = await request(owner.connection, "tools/call", { name: "job", task: {} });
    const { taskId } = created.task as { taskId: string };
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      const error = await rejectionOf(request(other.connection, method, { taskId }));
      expect(error.code).toBe(-32602);
    }
    expect((await request(other.connection, "tasks/list", {})).tasks).toEqual([]);
    await owner.connection.close();
    await firstAbort;
    expect(aborted).toHaveLength(1);
  });

  it("pages tasks/list and shares the store's limits with the modern extension", async () => {
    server = createServer({
      name: "legacy-tasks",
      version: "1.0.0",
      pageSize: 1,
      tasks: { maxTasks: 2 },
    });
    server.registerTool(
      "job",
      { taskSupport: "optional" },
      () => new Promise<never>(() => undefined),
    );
    const { connection } = await openSession();
    await request(connection, "tools/call", { name: "job", task: {} });
    await request(connection, "tools/call", { name: "job", task: {} });
    const first = await request(connection, "tasks/list", {});
    expect(first.tasks).toHaveLength(1);
    const second = await request(connection, "tasks/list", { cursor: first.nextCursor });
    expect(second.tasks).toHaveLength(1);
    expect(second).not.toHaveProperty("nextCursor");
    const response = await server.modern.handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "job",
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {
              extensions: { "io.modelcontextprotocol/tasks": {} },
            },
          },
        },
      },
      { signal: new AbortController().signal, notify: () => undefined },
    );
    expect(response).toMatchObject({ error: { code: -32010 } });
  });
});
