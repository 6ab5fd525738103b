import { type Client, createClient } from "@patchbay/client";
import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
  JSONRPCError,
} from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { createRouter, type Router } from "../src/router/create-router.js";
import { configOf, createHarness, type Harness } from "./harness.js";

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * A 2025-11-25 backend with experimental tasks, as a raw connection: `research` runs only as a
 * task; every task id it makes is `task-<n>`, and its own `tasks/list` lists every task it has
 * (as a backend serving a whole gateway does), which the router must not hand out.
 */
function legacyTaskBackend(options: { statusBeforeAnswer?: boolean } = {}) {
  const tasks = new Map<string, Record<string, unknown>>();
  const cancelled: string[] = [];
  const cancelListeners: ((taskId: string) => void)[] = [];
  let connection: Connection | undefined;
  const taskOf = (params: unknown) => {
    const task = tasks.get(String((params as { taskId?: unknown }).taskId));
    if (task === undefined) throw new JSONRPCError(-32602, "Failed to retrieve task: not found");
    return task;
  };
  const serve = (transport: Parameters<typeof createConnection>[0]) => {
    const backend = createConnection(transport, { defaultTimeoutMs: 0 });
    connection = backend;
    backend.handle("initialize", () => ({
      protocolVersion: "2025-11-25",
      capabilities: { tools: {}, tasks: TASKS_CAPABILITY },
      serverInfo: { name: "legacy-tasks", version: "1.0.0" },
    }));
    backend.handleNotification("notifications/initialized", () => {});
    backend.handle("tools/list", () => ({
      tools: [
        {
          name: "research",
          inputSchema: { type: "object" },
          execution: { taskSupport: "required" },
        },
      ],
    }));
    backend.handle("tools/call", async (params) => {
      const ttl = (params as { task?: { ttl?: number } }).task?.ttl ?? null;
      const taskId = `task-${tasks.size + 1}`;
      const now = new Date(0).toISOString();
      const task = { taskId, status: "working", ttl, createdAt: now, lastUpdatedAt: now };
      tasks.set(taskId, task);
      // The task's first status, written before the answer that names it (as SDK servers may).
      if (options.statusBeforeAnswer) await backend.notify("notifications/tasks/status", task);
      return { task };
    });
    backend.handle("tasks/get", (params) => taskOf(params));
    backend.handle("tasks/result", (params) => {
      const { taskId } = taskOf(params) as { taskId: string };
      return {
        content: [{ type: "text", text: `report of ${taskId}` }],
        _meta: { [RELATED_TASK]: { taskId } },
      };
    });
    backend.handle("tasks/cancel", (params) => {
      const task = taskOf(params);
      task.status = "cancelled";
      cancelled.push(String(task.taskId));
      for (const listener of cancelListeners) listener(String(task.taskId));
      return task;
    });
    backend.handle("tasks/list", () => ({ tasks: [...tasks.values()] }));
    return backend;
  };
  return {
    serve,
    cancelled,
    /** Resolves with the next task id the backend is asked to cancel. */
    nextCancel: () => new Promise<string>((resolve) => cancelListeners.push(resolve)),
    /** Sends the status of one of its tasks, unrelated to any request (as backends do). */
    status: (taskId: string, status: string) =>
      connection?.notify("notifications/tasks/status", { ...tasks.get(taskId), status }),
  };
}

let router: Router | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await router?.close();
  router = undefined;
});

async function startRouter(
  options: Parameters<typeof createRouter>[0]["modern"] = {},
  backendOptions: Parameters<typeof legacyTaskBackend>[0] = {},
) {
  const backend = legacyTaskBackend(backendOptions);
  router = createRouter({
    config: configOf({ mcpServers: { deep: { command: "x" } } }),
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await backend.serve(serverSide).start();
      return clientSide;
    },
    modern: options,
  });
  await router.start();
  return backend;
}

async function connect(capabilities: Record<string, unknown> = { tasks: TASKS_CAPABILITY }) {
  const [clientSide, gatewaySide] = createMemoryTransportPair();
  await (router as Router).serve(gatewaySide);
  const client = createClient(
    { name: "legacy-tasks-client", version: "1.0.0" },
    { capabilities, protocolVersion: "2025-11-25" },
  );
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

type CreateTaskResult = { task: { taskId: string; status: string; ttl: number } };

function callAsTask(client: Client, ttl = 60_000) {
  return client.request("tools/call", {
    name: "deep__research",
    arguments: {},
    task: { ttl },
  }) as Promise<CreateTaskResult>;
}

describe("2025-11-25 tasks through the router (legacy sessions)", () => {
  it("offers tasks to a client that declared them, when a backend it sees has them", async () => {
    await startRouter();
    const withTasks = await connect();
    const without = await connect({});
    expect(withTasks.serverCapabilities?.tasks).toEqual(TASKS_CAPABILITY);
    expect(without.serverCapabilities?.tasks).toBeUndefined();
  });

  it("hands out its own id, routes tasks/get and tasks/result by it, caps the TTL", async () => {
    await startRouter({ tasks: { maxTtlMs: 30_000 } });
    const client = await connect();
    const created = await callAsTask(client);
    const { taskId } = created.task;
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(created.task).toMatchObject({ status: "working", ttl: 30_000 });
    expect(await client.request("tasks/get", { taskId })).toMatchObject({
      taskId,
      status: "working",
    });
    // The backend's id is rewritten wherever it appears, text included: it never reaches a client.
    expect(await client.request("tasks/result", { taskId })).toEqual({
      content: [{ type: "text", text: `report of ${taskId}` }],
      _meta: { [RELATED_TASK]: { taskId } },
    });
  });

  it("lists only the caller's tasks, and another session's id is unknown like one never issued", async () => {
    await startRouter();
    const alice = await connect();
    const bob = await connect();
    const mine = (await callAsTask(alice)).task.taskId;
    const theirs = (await callAsTask(bob)).task.taskId;
    const listed = (await alice.request("tasks/list", {})) as { tasks: { taskId: string }[] };
    expect(listed.tasks.map((task) => task.taskId)).toEqual([mine]);
    const never = "0".repeat(32);
    for (const [taskId, method] of [
      [mine, "tasks/get"],
      [mine, "tasks/result"],
      [mine, "tasks/cancel"],
      [never, "tasks/get"],
    ] as const) {
      await expect(bob.request(method, { taskId })).rejects.toMatchObject({
        code: -32602,
        message: `Unknown task: ${taskId}`,
      });
    }
    expect(await bob.request("tasks/get", { taskId: theirs })).toMatchObject({ taskId: theirs });
  });

  it("delivers a task's status notifications to its session only, under the router's id", async () => {
    const backend = await startRouter();
    const alice = await connect();
    const bob = await connect();
    const aliceTask = (await callAsTask(alice)).task.taskId;
    const bobTask = (await callAsTask(bob)).task.taskId;
    const toAlice = nextStatus(alice);
    const toBob = nextStatus(bob);
    // Alice's first: had it reached Bob, it would be the first status Bob got.
    await backend.status("task-1", "input_required");
    await backend.status("task-2", "completed");
    expect(await toAlice).toMatchObject({ taskId: aliceTask, status: "input_required" });
    expect(await toBob).toMatchObject({ taskId: bobTask, status: "completed" });
  });

  it("delivers a status the backend sent before the answer naming its task, to that session only", async () => {
    await startRouter({}, { statusBeforeAnswer: true });
    const alice = await connect();
    const bob = await connect();
    const toAlice = nextStatus(alice);
    const toBob = nextStatus(bob);
    const aliceTask = (await callAsTask(alice)).task.taskId;
    const bobTask = (await callAsTask(bob)).task.taskId;
    expect(await toAlice).toMatchObject({ taskId: aliceTask, status: "working" });
    expect(await toBob).toMatchObject({ taskId: bobTask, status: "working" });
  });

  it("cancels a session's tasks at their backend when the session ends", async () => {
    const backend = await startRouter();
    const alice = await connect();
    const bob = await connect();
    await callAsTask(alice);
    await callAsTask(bob);
    const cancelled = backend.nextCancel();
    await alice.close();
    expect(await cancelled).toBe("task-1");
    expect(backend.cancelled).toEqual(["task-1"]);
  });

  it("refuses a task past maxTasksPerCaller (-32010) and cancels it at its backend", async () => {
    const backend = await startRouter({ tasks: { maxTasksPerCaller: 1 } });
    const client = await connect();
    await callAsTask(client);
    const cancelled = backend.nextCancel();
    await expect(callAsTask(client)).rejects.toMatchObject({
      code: -32010,
      message: expect.stringContaining("maximum of 1 live tasks"),
    });
    expect(await cancelled).toBe("task-2");
  });
});

function nextStatus(client: Client): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const unsubscribe = client.on("notifications/tasks/status", (params) => {
      unsubscribe();
      resolve(params);
    });
  });
}

describe("a Patchbay server's tasks behind a legacy session", () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it("are offered as 2025-11-25 tasks: a required task tool runs only as a task", async () => {
    harness = await createHarness(
      { mcpServers: { sample: { command: "x" } } },
      {
        sample: (server) => {
          server.registerTool("job", { taskSupport: "required" }, () => ({
            content: [{ type: "text", text: "done at once" }],
          }));
        },
      },
      { client: { capabilities: { tasks: TASKS_CAPABILITY }, protocolVersion: "2025-11-25" } },
    );
    const { client } = harness;
    expect(client.serverCapabilities?.tasks).toEqual(TASKS_CAPABILITY);
    await expect(
      client.request("tools/call", { name: "sample__job", arguments: {} }),
    ).rejects.toMatchObject({ code: -32601 });
    const created = (await client.request("tools/call", {
      name: "sample__job",
      arguments: {},
      task: {},
    })) as { task: { taskId: string } };
    const { taskId } = created.task;
    expect(await client.request("tasks/result", { taskId })).toEqual({
      content: [{ type: "text", text: "done at once" }],
      _meta: { [RELATED_TASK]: { taskId } },
    });
  });
});
