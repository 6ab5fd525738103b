import { ErrorCode, JSONRPCError } from "@patchbay/jsonrpc-core";
import type { CompileJsonSchema } from "../input-schema.js";
import type { RequestHandlerContext } from "../request-handler-context.js";
import { runTool, type ToolEntry } from "../tool.js";
import type { TaskError, TaskRecord, TaskStore } from "./task-store.js";
import { taskFields } from "./task-wire.js";

/** What one task-creating `tools/call` needs. */
export interface TaskToolCall {
  readonly store: TaskStore;
  readonly entry: ToolEntry;
  readonly args: unknown;
  readonly owner: string;
  /** The modern request's context (MRTR input, progress and logs of the request). */
  readonly context: RequestHandlerContext;
  readonly compile: CompileJsonSchema;
}

type Outcome =
  | { kind: "task"; task: TaskRecord }
  | { kind: "result"; result: unknown }
  | { kind: "error"; error: unknown };

/**
 * Runs a tool for a client that declared the tasks extension. The task starts before the handler
 * runs, or (`deferTask`) when the handler calls `context.startTask()`; until then the call is an
 * ordinary modern request (MRTR input rounds, a direct result). Once started, the call is answered
 * with `CreateTaskResult` and the handler goes on in the background: its input requests park the
 * task (`input_required`, answered by `tasks/update`), its result or protocol error ends it, and
 * `tasks/cancel` or expiry aborts its signal.
 */
export async function callToolAsTask(call: TaskToolCall): Promise<unknown> {
  const { store, entry, owner, context } = call;
  let task: TaskRecord | undefined;
  const abort = new AbortController();
  context.signal.addEventListener(
    "abort",
    () => {
      if (task === undefined) abort.abort(context.signal.reason);
    },
    { once: true },
  );
  let started!: (task: TaskRecord) => void;
  const created = new Promise<TaskRecord>((resolve) => {
    started = resolve;
  });
  const startTask = async () => {
    if (task !== undefined) return;
    const record = store.create(owner);
    task = record;
    record.signal.addEventListener("abort", () => abort.abort(record.signal.reason), {
      once: true,
    });
    started(record);
  };
  let inputCount = 0;
  const ask = <T>(method: string, params: object, inputKey: string | undefined): Promise<T> => {
    inputCount += 1;
    const key = inputKey ?? `${method.split("/")[0]}-${inputCount}`;
    return store.ask(task!, key, { method, params: { ...params } }) as Promise<T>;
  };
  const taskContext: RequestHandlerContext = {
    ...context,
    signal: abort.signal,
    progress: (...report) => (task === undefined ? context.progress(...report) : Promise.resolve()),
    log: (...entry) => (task === undefined ? context.log(...entry) : Promise.resolve()),
    elicit: (params, options) =>
      task === undefined
        ? context.elicit(params, options)
        : ask("elicitation/create", params, options?.inputKey),
    sample: (params, options) =>
      task === undefined
        ? context.sample(params, options)
        : ask("sampling/createMessage", params, options?.inputKey),
    listRoots: (options) =>
      task === undefined ? context.listRoots(options) : ask("roots/list", {}, options?.inputKey),
    startTask,
  };
  if (entry.config.deferTask !== true) await startTask();
  const run = runTool(entry, call.args, taskContext, call.compile);
  const outcome = await Promise.race<Outcome>([
    created.then((record) => ({ kind: "task", task: record })),
    run.then(
      (result) => ({ kind: "result", result }),
      (error: unknown) => ({ kind: "error", error }),
    ),
  ]);
  if (outcome.kind === "result") return outcome.result;
  if (outcome.kind === "error") throw outcome.error;
  settleTask(store, outcome.task, run);
  return { ...taskFields(store, outcome.task), resultType: "task" };
}

/** Ends the task with the tool's result or protocol error once `run` settles. */
export function settleTask(store: TaskStore, task: TaskRecord, run: Promise<unknown>): void {
  run.then(
    (result) => store.complete(task, result as Record<string, unknown>),
    (error: unknown) => store.fail(task, toTaskError(error)),
  );
}

function toTaskError(error: unknown): TaskError {
  if (JSONRPCError.isInstance(error)) {
    const object: TaskError = { code: error.code, message: error.message };
    if (error.data !== undefined) object.data = error.data;
    return object;
  }
  return {
    code: ErrorCode.InternalError,
    message: error instanceof Error ? error.message : String(error),
  };
}
