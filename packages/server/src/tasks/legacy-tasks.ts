import {
  ErrorCode,
  InvalidParamsError,
  JSONRPCError,
  MethodNotFoundError,
} from "@patchbay/jsonrpc-core";
import { isLegacyProtocolVersion, RELATED_TASK_META_KEY } from "@patchbay/mcp-types";
import type { CompileJsonSchema } from "../input-schema.js";
import { paginate } from "../pagination.js";
import type { RequestHandlerContext } from "../request-handler-context.js";
import type { ClientRequestOptions } from "../session-api.js";
import { runTool, type ToolEntry } from "../tool.js";
import type { TaskRecord, TaskStore } from "./task-store.js";
import { settleTask } from "./task-tool-call.js";
import { legacyTaskFields } from "./task-wire.js";

/** The first legacy revision with (experimental) tasks. */
const FIRST_TASKS_REVISION = "2025-11-25";

/** The methods of 2025-11-25 tasks a server with task tools answers. */
export const LEGACY_TASK_METHODS = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"];

/** Whether a legacy session of `protocolVersion` may use tasks (2025-11-25 on). */
export function servesLegacyTasks(protocolVersion: string): boolean {
  return isLegacyProtocolVersion(protocolVersion) && protocolVersion >= FIRST_TASKS_REVISION;
}

/** The 2025-11-25 `tasks` server capability: list, cancel and task-augmented `tools/call`. */
export function legacyTasksCapability(): Record<string, unknown> {
  return { list: {}, cancel: {}, requests: { tools: { call: {} } } };
}

/** What one task-augmented 2025-11-25 `tools/call` needs. */
export interface LegacyTaskToolCall {
  readonly store: TaskStore;
  readonly entry: ToolEntry;
  readonly args: unknown;
  /** The session that created the task: only it sees the task. */
  readonly owner: string;
  /** `params.task` of the call (`ttl` in ms, cut to the store's). */
  readonly task: Record<string, unknown>;
  readonly context: RequestHandlerContext;
  readonly compile: CompileJsonSchema;
  /** Sends `notifications/tasks/status` to the session that created the task. */
  readonly notifyStatus: (fields: Record<string, unknown>) => void;
}

/**
 * Answers a task-augmented `tools/call` (2025-11-25) with `CreateTaskResult` at once and runs the
 * tool in the background on the server's task store. Each status change is sent to the creating
 * session; `tasks/cancel`, expiry or the session's end aborts the handler's signal. What the handler
 * asks the client meanwhile names the task in `_meta["io.modelcontextprotocol/related-task"]`, and
 * the task is `input_required` until it is answered.
 */
export function callToolAsLegacyTask(call: LegacyTaskToolCall): Record<string, unknown> {
  const { store, context } = call;
  const ttl = call.task.ttl;
  const record = store.create(call.owner, {
    ...(typeof ttl === "number" ? { ttlMs: ttl } : {}),
    onStatus: (task) => call.notifyStatus(legacyTaskFields(store, task)),
  });
  const related = { [RELATED_TASK_META_KEY]: { taskId: record.taskId } };
  const withTask = <P extends { _meta?: object | undefined }>(params: P): P => ({
    ...params,
    _meta: { ...params._meta, ...related },
  });
  const withTaskSignal = (options: ClientRequestOptions = {}): ClientRequestOptions => ({
    ...options,
    signal:
      options.signal === undefined
        ? record.signal
        : AbortSignal.any([record.signal, options.signal]),
  });
  const taskContext: RequestHandlerContext = {
    ...context,
    signal: AbortSignal.any([record.signal, context.signal]),
    elicit: (params, options) =>
      store.waitingForInput(record, context.elicit(withTask(params), withTaskSignal(options))),
    sample: (params, options) =>
      store.waitingForInput(record, context.sample(withTask(params), withTaskSignal(options))),
    listRoots: (options) =>
      store.waitingForInput(record, context.listRoots(withTaskSignal(options))),
    startTask: async () => undefined,
  };
  settleTask(store, record, runTool(call.entry, call.args, taskContext, call.compile));
  return { task: legacyTaskFields(store, record), _meta: related };
}

/**
 * Answers `tasks/get`, `tasks/result` (waits until the task ends, then returns exactly the tool's
 * result or protocol error), `tasks/list` (paged) or `tasks/cancel` (a terminal task is -32602) for
 * `owner`; another owner's task is "unknown" like one never issued.
 */
export async function handleLegacyTaskMethod(
  store: TaskStore,
  method: string,
  params: Record<string, unknown>,
  owner: string,
  context: { signal: AbortSignal; pageSize: number; cursor: string | undefined },
): Promise<Record<string, unknown>> {
  if (method === "tasks/list") {
    const tasks = store.list(owner).map((task) => legacyTaskFields(store, task));
    const page = paginate(tasks, context.cursor, context.pageSize);
    return page.nextCursor === undefined
      ? { tasks: page.items }
      : { tasks: page.items, nextCursor: page.nextCursor };
  }
  const task = store.get(owner, params.taskId);
  if (method === "tasks/get") return legacyTaskFields(store, task);
  if (method === "tasks/cancel") {
    // No `data.taskId`: that would read as "unknown task" to a router in front.
    if (store.isTerminal(task)) {
      throw new InvalidParamsError(`Task ${task.taskId} is already ${task.status}`);
    }
    store.cancel(owner, task.taskId);
    return legacyTaskFields(store, task);
  }
  if (method === "tasks/result") return await taskPayload(store, owner, task, context.signal);
  throw new MethodNotFoundError(undefined, { method });
}

async function taskPayload(
  store: TaskStore,
  owner: string,
  task: TaskRecord,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  await Promise.race([store.settled(task), abortedPromise(signal)]);
  // Expired while waiting: as unknown as any other task that is gone.
  store.get(owner, task.taskId);
  const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
  if (task.status === "completed" && task.result !== undefined) {
    const meta = task.result._meta as Record<string, unknown> | undefined;
    return { ...task.result, _meta: { ...meta, ...related } };
  }
  if (task.status === "failed" && task.error !== undefined) {
    throw new JSONRPCError(task.error.code, task.error.message, task.error.data);
  }
  throw new JSONRPCError(ErrorCode.InternalError, `Task ${task.taskId} was cancelled`, {
    taskId: task.taskId,
  });
}

function abortedPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
