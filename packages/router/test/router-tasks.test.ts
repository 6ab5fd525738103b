import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import type { ModernEndpoint } from "../src/modern/modern-endpoint.js";
import { createHarness, type Harness, sendModern as send } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const VERSION = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
const WITH_TASKS = { extensions: { [TASKS]: {} } };

/** A gate a tool waits on, opened by the test. */
interface Gate {
  open(): void;
  readonly opened: Promise<void>;
  /** Set when the tool's work was aborted (its task cancelled). */
  aborted: boolean;
  /** Resolves when the tool's work is aborted. */
  readonly abortedOnce: Promise<void>;
  markAborted(): void;
}

function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let markAborted!: () => void;
  const abortedOnce = new Promise<void>((resolve) => {
    markAborted = resolve;
  });
  const result: Gate = {
    open,
    opened,
    aborted: false,
    abortedOnce,
    markAborted: () => {
      result.aborted = true;
      markAborted();
    },
  };
  return result;
}

/** A modern backend whose `slow` tool runs as a task until `work` opens, and `must` only as one. */
function defineTasks(label: string, work: Gate) {
  return (server: Server) => {
    server.registerTool("slow", { taskSupport: "optional" }, async (_args, context) => {
      context.signal.addEventListener("abort", () => work.markAborted());
      await work.opened;
      return { content: [{ type: "text", text: `done by ${label}` }] };
    });
    server.registerTool("must", { taskSupport: "required" }, () => ({
      content: [{ type: "text", text: "only as a task" }],
    }));
  };
}

/**
 * Opens the tool's gate and reads the task until it leaves `working`, as a tasks client does (each
 * read is a round trip through the router and the backend, which ends the task meanwhile).
 */
async function finished(endpoint: ModernEndpoint, taskId: unknown, work: Gate) {
  work.open();
  for (;;) {
    const { result, error } = await send(endpoint, "tasks/get", { taskId });
    if (error !== undefined || result?.status !== "working") return { result, error };
  }
}

const config = { mcpServers: { a: { command: "x" }, b: { command: "x" } } };
const modernBackends = { backendVersions: [VERSION] };

/** Two modern task backends, `a` working until `work` opens, and the router's modern endpoint. */
async function startTasks(work: Gate, options: Parameters<typeof createHarness>[2] = {}) {
  harness = await createHarness(
    config,
    { a: defineTasks("a", work), b: defineTasks("b", gate()) },
    { ...modernBackends, ...options },
  );
  return harness.router.modern();
}

describe("tasks (extension io.modelcontextprotocol/tasks) through the router's modern front", () => {
  it("advertises the extension, hands out its own task ids and routes tasks/get to the creating backend", async () => {
    const workA = gate();
    const workB = gate();
    harness = await createHarness(
      config,
      { a: defineTasks("a", workA), b: defineTasks("b", workB) },
      modernBackends,
    );
    const endpoint = harness.router.modern();
    const discover = await send(endpoint, "server/discover");
    expect(discover.result?.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });

    const fromA = await send(endpoint, "tools/call", { name: "a__slow", arguments: {} });
    const fromB = await send(endpoint, "tools/call", { name: "b__slow", arguments: {} });
    for (const created of [fromA, fromB]) {
      expect(created.result).toMatchObject({ resultType: "task", status: "working" });
      expect(created.result?.taskId).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(fromA.result?.taskId).not.toBe(fromB.result?.taskId);

    const working = await send(endpoint, "tasks/get", { taskId: fromA.result?.taskId });
    expect(working.result).toMatchObject({ taskId: fromA.result?.taskId, status: "working" });
    const doneB = await finished(endpoint, fromB.result?.taskId, workB);
    expect(doneB.result).toMatchObject({
      taskId: fromB.result?.taskId,
      status: "completed",
      result: { content: [{ type: "text", text: "done by b" }] },
    });
    const doneA = await finished(endpoint, fromA.result?.taskId, workA);
    expect(doneA.result).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "done by a" }] },
    });
  });

  it("keeps a task to its caller: another caller and an unknown id both get -32602", async () => {
    const work = gate();
    const endpoint = await startTasks(work);
    const created = await send(endpoint, "tools/call", { name: "a__slow", arguments: {} });
    const taskId = created.result?.taskId as string;
    const stranger = await send(endpoint, "tasks/get", { taskId }, { caller: "mallory" });
    expect(stranger.error).toEqual({
      code: -32602,
      message: `Unknown task: ${taskId}`,
      data: { taskId },
    });
    const strangerCancel = await send(endpoint, "tasks/cancel", { taskId }, { caller: "mallory" });
    expect(strangerCancel.error?.code).toBe(-32602);
    const unknownId = "0".repeat(32);
    const unknown = await send(endpoint, "tasks/get", { taskId: unknownId });
    expect(unknown.error).toEqual({
      code: -32602,
      message: `Unknown task: ${unknownId}`,
      data: { taskId: unknownId },
    });
    expect(work.aborted).toBe(false);
    work.open();
  });

  it("cancels a task end to end: an empty ack, the backend's work aborted, then status cancelled", async () => {
    const work = gate();
    const endpoint = await startTasks(work);
    const created = await send(endpoint, "tools/call", { name: "a__slow", arguments: {} });
    const taskId = created.result?.taskId;
    const ack = await send(endpoint, "tasks/cancel", { taskId });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    expect(ack.result).not.toHaveProperty("taskId");
    expect(work.aborted).toBe(true);
    const after = await send(endpoint, "tasks/get", { taskId });
    expect(after.result).toMatchObject({ taskId, status: "cancelled" });
  });

  it("declares the extension to a backend only for a client that declared it", async () => {
    const work = gate();
    const endpoint = await startTasks(work);
    work.open();
    const plain = await send(
      endpoint,
      "tools/call",
      { name: "a__slow", arguments: {} },
      { capabilities: {} },
    );
    expect(plain.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "done by a" }],
    });
    expect(plain.result).not.toHaveProperty("taskId");
    const required = await send(
      endpoint,
      "tools/call",
      { name: "a__must", arguments: {} },
      { capabilities: {} },
    );
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const gated = await send(endpoint, method, { taskId: "x" }, { capabilities: {} });
      expect(gated.error?.code, method).toBe(-32021);
    }
  });

  it("answers a legacy client calling a tool its modern backend runs only as a task with -32601", async () => {
    await startTasks(gate());
    await expect(harness!.client.callTool({ name: "a__must" })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining("Tool must (backend a) requires task augmentation"),
    });
  });

  it("refuses a task past the caller's limit, cancelling it at its backend", async () => {
    const first = gate();
    const endpoint = await startTasks(first, { modern: { tasks: { maxTasksPerCaller: 1 } } });
    const kept = await send(endpoint, "tools/call", { name: "a__slow", arguments: {} });
    expect(kept.result?.resultType).toBe("task");
    const refused = await send(endpoint, "tools/call", { name: "a__slow", arguments: {} });
    expect(refused.error).toMatchObject({
      code: -32010,
      message: expect.stringContaining("1 live tasks"),
    });
    // The refused task's work at the backend ends (the kept one goes on).
    await first.abortedOnce;
    const other = await send(
      endpoint,
      "tools/call",
      { name: "a__slow", arguments: {} },
      { caller: "bob" },
    );
    expect(other.result?.resultType).toBe("task");
    first.open();
  });

  it("gives a backend's colliding task id its own router id, so neither backend reaches the other's task", async () => {
    const work = gate();
    let claimed = "";
    harness = await createHarness(
      config,
      {
        a: defineTasks("a", work),
        b: (server) => {
          // A hostile backend: its "task" claims the id the client was given for a's task.
          server.registerTool("fake", {}, () => ({
            resultType: "task",
            taskId: claimed,
            status: "working",
            createdAt: new Date(0).toISOString(),
            lastUpdatedAt: new Date(0).toISOString(),
            ttlMs: 60_000,
            content: [],
          }));
        },
      },
      modernBackends,
    );
    const endpoint = harness.router.modern();
    const real = await send(endpoint, "tools/call", { name: "a__slow", arguments: {} });
    claimed = real.result?.taskId as string;
    const fake = await send(endpoint, "tools/call", { name: "b__fake", arguments: {} });
    expect(fake.result?.resultType).toBe("task");
    expect(fake.result?.taskId).not.toBe(claimed);
    const done = await finished(endpoint, claimed, work);
    expect(done.result).toMatchObject({ taskId: claimed, status: "completed" });
    // b does not know its own claim: its id is forgotten, answered like any unknown task.
    const ghost = await send(endpoint, "tasks/get", { taskId: fake.result?.taskId });
    expect(ghost.error).toMatchObject({ code: -32602, data: { taskId: fake.result?.taskId } });
  });

  it("cancels the tasks of a modern client on a served transport when it goes away", async () => {
    const work = gate();
    await startTasks(work);
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await harness!.router.serve(gatewaySide);
    const answered = new Promise<Record<string, unknown>>((resolve) => {
      clientSide.onFrame((frame) => resolve(frame as unknown as Record<string, unknown>));
    });
    await clientSide.start();
    await clientSide.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "a__slow",
        arguments: {},
        _meta: {
          "io.modelcontextprotocol/protocolVersion": VERSION,
          "io.modelcontextprotocol/clientCapabilities": WITH_TASKS,
        },
      },
    });
    expect(await answered).toMatchObject({ id: 1, result: { resultType: "task" } });
    expect(work.aborted).toBe(false);
    await clientSide.close();
    await work.abortedOnce;
  });
});
