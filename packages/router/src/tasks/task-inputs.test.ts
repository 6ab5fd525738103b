import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { describe, expect, it } from "vitest";
import { MAX_INPUTS_PER_TASK, TaskInputs } from "./task-inputs.js";

const ELICIT = {
  mode: "form",
  message: "Your name?",
  requestedSchema: { type: "object", properties: {} },
  _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" } },
};

function inputsAt() {
  const clock = createManualClock(1_000);
  const task = { taskId: "t1", expiresAt: 1_000 + 60_000 };
  return { clock, task, inputs: new TaskInputs(clock) };
}

describe("TaskInputs", () => {
  it("keeps a question under a key until a valid answer comes, without the task's _meta", async () => {
    const { task, inputs } = inputsAt();
    const asked = inputs.ask(task, "elicitation/create", ELICIT, new AbortController().signal);
    const requests = inputs.requests("t1");
    const [key] = Object.keys(requests ?? {});
    expect(requests?.[key as string]).toEqual({
      method: "elicitation/create",
      params: { mode: "form", message: "Your name?", requestedSchema: ELICIT.requestedSchema },
    });
    expect(() => inputs.answer("t1", { [key as string]: { action: "nope" } })).toThrow(
      /not a valid elicitation\/create result/,
    );
    inputs.answer("t1", { [key as string]: { action: "decline" }, other: {} });
    expect(await asked).toEqual({ action: "decline" });
    expect(inputs.requests("t1")).toBeUndefined();
  });

  it("refuses a question past the per-task bound with -32010", async () => {
    const { task, inputs } = inputsAt();
    const signal = new AbortController().signal;
    const pending = Array.from({ length: MAX_INPUTS_PER_TASK }, () =>
      inputs.ask(task, "roots/list", {}, signal).catch((error: unknown) => error),
    );
    await expect(inputs.ask(task, "roots/list", {}, signal)).rejects.toMatchObject({
      code: -32010,
    });
    inputs.reject("t1", new Error("Task t1 cancelled"));
    for (const outcome of await Promise.all(pending)) {
      expect(outcome).toMatchObject({ message: "Task t1 cancelled" });
    }
    expect(inputs.requests("t1")).toBeUndefined();
  });

  it("rejects what a task waits for at its route's end, and a question its asker abandons", async () => {
    const { clock, task, inputs } = inputsAt();
    const abandon = new AbortController();
    const abandoned = inputs.ask(task, "roots/list", {}, abandon.signal);
    abandon.abort(new Error("backend cancelled"));
    await expect(abandoned).rejects.toThrow("backend cancelled");
    const waiting = inputs.ask(task, "roots/list", {}, new AbortController().signal);
    clock.advance(60_000);
    await expect(waiting).rejects.toThrow("Task t1 expired at the gateway");
  });
});
