import { ErrorCode, JSONRPCError } from "@patchbay/jsonrpc-core";
import { RELATED_TASK_META_KEY } from "@patchbay/mcp-types";
import { forwardTaskMethod, type RouterBackend } from "./front-tasks.js";
import { offersLegacyTasks } from "./legacy-tasks.js";
import type { TaskRoute, TaskRoutes } from "./task-routes.js";

/**
 * A 2026-07-28 client's tasks (extension `io.modelcontextprotocol/tasks`) on a 2025-11-25 backend
 * with tasks: the router adds `params.task` to the call of a tool the backend lists with
 * `execution.taskSupport`, hands the backend's `CreateTaskResult` on as the extension's
 * (`resultType: "task"`), and answers the extension's `tasks/get` (result or error inlined, from the
 * backend's `tasks/result` once the task ended) and `tasks/cancel` (idempotent) from the backend's
 * 2025-11-25 methods. What the backend asks about a task (`elicitation/create`,
 * `sampling/createMessage`, `roots/list` naming it in `_meta["io.modelcontextprotocol/related-task"]`)
 * is the task's input: shown by `tasks/get`, answered by `tasks/update`.
 */

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** The part of a backend this bridge reads: its capabilities and its tools as listed. */
export interface LegacyTaskBackend {
  readonly initializeResult?: { readonly capabilities?: unknown } | undefined;
  readonly listing?: { readonly tools?: readonly { readonly name: string }[] } | undefined;
}

/** True when `backend` runs its tool `name` as a 2025-11-25 task on request. */
export function runsAsLegacyTask(backend: LegacyTaskBackend, name: unknown): boolean {
  if (!offersLegacyTasks(backend.initializeResult?.capabilities)) return false;
  const tool = backend.listing?.tools?.find((candidate) => candidate.name === name) as
    | { execution?: { taskSupport?: unknown } }
    | undefined;
  const support = tool?.execution?.taskSupport;
  return support === "optional" || support === "required";
}

/**
 * True for a legacy backend's -32601 to a call without `params.task` of a tool it lists with
 * `taskSupport: "required"`: a modern client that did not declare the extension gets -32021.
 */
export function refusedWithoutLegacyTask(
  error: unknown,
  backend: LegacyTaskBackend,
  name: unknown,
): boolean {
  if (!JSONRPCError.isInstance(error) || error.code !== ErrorCode.MethodNotFound) return false;
  if (!runsAsLegacyTask(backend, name)) return false;
  const tool = backend.listing?.tools?.find((candidate) => candidate.name === name) as
    | { execution?: { taskSupport?: unknown } }
    | undefined;
  return tool?.execution?.taskSupport === "required";
}

/** A 2025-11-25 `Task` in the extension's shape (without `resultType`). */
function modernTaskOf(task: Record<string, unknown>): Record<string, unknown> {
  const modern: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
  };
  if (typeof task.ttl === "number") modern.ttlMs = task.ttl;
  if (typeof task.pollInterval === "number") modern.pollIntervalMs = task.pollInterval;
  if (typeof task.statusMessage === "string") modern.statusMessage = task.statusMessage;
  return modern;
}

/** A legacy backend's `CreateTaskResult` as the extension's; any other answer as it is. */
export function modernCreatedTaskOf(answer: unknown): unknown {
  const task = (answer as { task?: unknown } | null)?.task;
  if (typeof task !== "object" || task === null || "content" in (answer as object)) return answer;
  return { ...modernTaskOf(task as Record<string, unknown>), resultType: "task" };
}

/** True for a route the extension's methods must translate (its backend is a legacy one). */
export function isLegacyBackendRoute(
  route: TaskRoute,
  backends: readonly (RouterBackend & LegacyTaskBackend)[],
): boolean {
  const backend = backends.find((candidate) => candidate.name === route.backend);
  return backend !== undefined && offersLegacyTasks(backend.initializeResult?.capabilities);
}

/**
 * The extension's `tasks/get`, `tasks/cancel` or `tasks/update` on a legacy backend's task. What
 * the backend asks about the task meanwhile (`routes.inputs`) shows the task `input_required` with
 * those questions as `inputRequests`; `tasks/update` answers them; a task cancelled or ended
 * rejects the questions still open.
 */
export async function legacyBackendTaskMethod(
  routes: TaskRoutes,
  backends: readonly RouterBackend[],
  request: {
    method: string;
    params: Record<string, unknown>;
    route: TaskRoute;
    signal: AbortSignal;
  },
): Promise<Record<string, unknown>> {
  const { route, signal } = request;
  const send = (method: string) =>
    forwardTaskMethod(routes, backends, {
      method,
      params: { taskId: route.taskId },
      caller: route.caller,
      signal,
    }) as Promise<Record<string, unknown>>;
  if (request.method === "tasks/update") {
    routes.inputs.answer(route.taskId, request.params.inputResponses);
    return { resultType: "complete" };
  }
  const task = await send("tasks/get");
  const ended = TERMINAL.has(String(task.status));
  if (ended) routes.inputs.reject(route.taskId, new Error(`Task ${route.taskId} ${task.status}`));
  if (request.method === "tasks/cancel") {
    routes.inputs.reject(route.taskId, new Error(`Task ${route.taskId} cancelled`));
    if (!ended) await send("tasks/cancel");
    return { resultType: "complete" };
  }
  const detail: Record<string, unknown> = { ...modernTaskOf(task), resultType: "complete" };
  const inputRequests = ended ? undefined : routes.inputs.requests(route.taskId);
  if (inputRequests !== undefined) {
    detail.status = "input_required";
    detail.inputRequests = inputRequests;
  }
  if (task.status === "completed") {
    const { _meta, ...result } = await send("tasks/result");
    const meta = { ...(_meta as Record<string, unknown> | undefined) };
    delete meta[RELATED_TASK_META_KEY];
    detail.result = Object.keys(meta).length === 0 ? result : { ...result, _meta: meta };
  }
  if (task.status === "failed") {
    detail.error = await send("tasks/result").then(
      () => ({ code: ErrorCode.InternalError, message: "The task failed" }),
      (error: unknown) => errorObjectOf(error),
    );
  }
  return detail;
}

function errorObjectOf(error: unknown): Record<string, unknown> {
  if (!JSONRPCError.isInstance(error)) {
    return { code: ErrorCode.InternalError, message: String(error) };
  }
  const object: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.data !== undefined) object.data = error.data;
  return object;
}
