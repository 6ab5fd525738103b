import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { TaskStore } from "./task-store.js";

function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const accept = { action: "accept", content: { confirm: true } };
const noCheck = () => undefined;

describe("TaskStore", () => {
  it("keeps a task readable for ttlMs after its creation, then drops it and aborts its work", () => {
    const clock = manualClock();
    const store = new TaskStore({ ttlMs: 1000, now: clock.now });
    const task = store.create("alice");
    clock.advance(999);
    expect(store.get("alice", task.taskId)).toBe(task);
    clock.advance(1);
    expect(() => store.get("alice", task.taskId)).toThrow(/Unknown task/);
    expect(task.signal.aborted).toBe(true);
    expect(store.size).toBe(0);
  });

  it("mints unguessable ids: 128 random bits, never the same twice", () => {
    const store = new TaskStore();
    const ids = new Set(Array.from({ length: 50 }, () => store.create("a").taskId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("refuses tasks past the server and per-owner limits (-32010), until one expires", () => {
    const clock = manualClock();
    const store = new TaskStore({ ttlMs: 100, maxTasks: 3, maxTasksPerOwner: 2, now: clock.now });
    store.create("alice");
    clock.advance(50);
    store.create("alice");
    expect(() => store.create("alice")).toThrow(
      expect.objectContaining({ code: -32010, message: expect.stringMatching(/this caller/) }),
    );
    store.create("bob");
    expect(() => store.create("carol")).toThrow(
      expect.objectContaining({ code: -32010, message: expect.stringMatching(/this server/) }),
    );
    clock.advance(50);
    expect(store.create("carol").owner).toBe("carol");
  });

  it("hides a task from every other owner: unknown (-32602) for get, answer and cancel", () => {
    const store = new TaskStore();
    const task = store.create("alice");
    expect(() => store.get("bob", task.taskId)).toThrow(InvalidParamsError);
    expect(() => store.answer("bob", task.taskId, {}, noCheck)).toThrow(InvalidParamsError);
    expect(() => store.cancel("bob", task.taskId)).toThrow(InvalidParamsError);
    expect(task.status).toBe("working");
    expect(() => store.get("alice", 42)).toThrow(/taskId must be a string/);
  });

  it("parks a task on input until every pending request is answered; unknown keys are ignored", async () => {
    const store = new TaskStore();
    const task = store.create("alice");
    const first = store.ask(task, "a", { method: "elicitation/create", params: {} });
    const second = store.ask(task, "b", { method: "elicitation/create", params: {} });
    expect(task.status).toBe("input_required");
    expect(Object.keys(store.pendingInputs(task))).toEqual(["a", "b"]);
    store.answer("alice", task.taskId, { a: accept, other: { ignored: true } }, noCheck);
    await expect(first).resolves.toEqual(accept);
    expect(task.status).toBe("input_required");
    expect(Object.keys(store.pendingInputs(task))).toEqual(["b"]);
    const refuse = () => {
      throw new InvalidParamsError("bad answer");
    };
    expect(() => store.answer("alice", task.taskId, { b: {} }, refuse)).toThrow("bad answer");
    expect(Object.keys(store.pendingInputs(task))).toEqual(["b"]);
    store.answer("alice", task.taskId, { b: accept }, noCheck);
    await expect(second).resolves.toEqual(accept);
    expect(task.status).toBe("working");
  });

  it("cancels a live task (its signal aborts, a pending input rejects) and leaves terminal ones", async () => {
    const clock = manualClock();
    const store = new TaskStore({ now: clock.now });
    const task = store.create("alice");
    const input = store.ask(task, "a", { method: "roots/list", params: {} });
    clock.advance(5);
    store.cancel("alice", task.taskId);
    await expect(input).rejects.toThrow(/cancelled/);
    expect(task).toMatchObject({ status: "cancelled", lastUpdatedAt: 1_000_005 });
    expect(task.signal.aborted).toBe(true);
    store.complete(task, { content: [] });
    expect(task.status).toBe("cancelled");
    const done = store.create("alice");
    store.complete(done, { content: [] });
    store.cancel("alice", done.taskId);
    store.fail(done, { code: -32603, message: "late" });
    expect(done).toMatchObject({ status: "completed", result: { content: [] } });
    expect(done.error).toBeUndefined();
  });
});
