import { ErrorCode, JSONRPCError } from "@patchbay/jsonrpc-core";
import { RELATED_TASK_META_KEY, TASKS_EXTENSION_ID } from "@patchbay/mcp-types";
import type { ServerToClientMethod } from "../backends/backend-events.js";
import type { RouterClock } from "../backends/router-clock.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { INVALID_PARAMS } from "../errors/map-error.js";
import {
  cancelAbandonedTasks,
  forwardTaskMethod,
  type RouterBackend,
  replaceTaskId,
} from "./front-tasks.js";
import { legacyTaskCaller } from "./legacy-tasks.js";
import type { TaskRoute, TaskRoutes } from "./task-routes.js";

/**
 * A 2025-11-25 session's tasks on a 2026-07-28 backend with the extension
 * `io.modelcontextprotocol/tasks`: the router declares the extension toward the backend for a
 * task-augmented `tools/call` and translates each era's wire into the other's. The extension has
 * `tasks/get` (the task with its result inlined), `tasks/cancel` (an empty ack) and no push of
 * statuses; 2025-11-25 has `tasks/result` (waits for the end), `tasks/list` and
 * `notifications/tasks/status`, which the router makes from `tasks/get` answers (polled at the
 * backend's `pollIntervalMs` while `tasks/result` waits). A task `input_required` shows its
 * questions in `tasks/get` (`inputRequests`): while `tasks/result` waits, the router asks them of
 * the session as 2025-11-25 requests naming the task (`_meta["io.modelcontextprotocol/related-task"]`)
 * and sends the answers to the backend with `tasks/update` (`inputResponses`).
 */

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** True when a backend's capabilities declare the tasks extension (a 2026-07-28 backend). */
export function offersTasksExtension(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[TASKS_EXTENSION_ID] !== undefined;
}

/** A 2026-07-28 `DetailedTask` as a 2025-11-25 `Task` (a failure's message is its status message). */
export function legacyTaskOf(detail: Record<string, unknown>): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: detail.taskId,
    status: detail.status,
    createdAt: detail.createdAt,
    lastUpdatedAt: detail.lastUpdatedAt,
    ttl: typeof detail.ttlMs === "number" ? detail.ttlMs : null,
  };
  if (typeof detail.pollIntervalMs === "number") task.pollInterval = detail.pollIntervalMs;
  const message = (detail.error as { message?: unknown } | undefined)?.message;
  if (typeof detail.statusMessage === "string") task.statusMessage = detail.statusMessage;
  else if (typeof message === "string") task.statusMessage = message;
  return task;
}

/**
 * A modern backend's answer to a legacy session's task-augmented `tools/call`: a task
 * (`resultType: "task"`) is routed for the session under a router-made id and handed on as
 * `CreateTaskResult`, routed for the shorter of the backend's TTL and the one the call asked
 * (`params.task.ttl`); a direct result is handed on as it is. Past the limits the backend's task is
 * cancelled and the call fails (-32010).
 */
export function routeBridgedTask(
  routes: TaskRoutes,
  answer: unknown,
  call: { sessionId: string; requestedTtl: unknown },
  backend: RouterBackend,
): unknown {
  const result = answer as Record<string, unknown> | null;
  if (result?.resultType !== "task" || typeof result.taskId !== "string") return answer;
  const sessionId = call.sessionId;
  // The extension takes no TTL from the client: the route keeps the shorter of the two.
  const ttl = Math.min(routes.ttlFor(result.ttlMs), routes.ttlFor(call.requestedTtl));
  let route: TaskRoute;
  try {
    route = routes.add(legacyTaskCaller(sessionId), backend.name, result.taskId, ttl, {
      bridged: { status: String(result.status) },
    });
  } catch (error) {
    cancelAbandonedTasks([{ backend: backend.name, backendTaskId: result.taskId }], [backend]);
    throw error;
  }
  const task = legacyTaskOf({ ...replaceTaskId(result, result.taskId, route.taskId), ttlMs: ttl });
  return { task };
}

/** What a bridged task method needs beside the request. */
export interface BridgeScope {
  readonly routes: TaskRoutes;
  readonly backends: readonly RouterBackend[];
  readonly clock: RouterClock;
  /** Sends `notifications/tasks/status` to the session that owns the task. */
  readonly tell: (task: Record<string, unknown>) => void;
  /** Asks the session for `backend` (refused when it lacks the method's capability). */
  readonly ask: (
    backend: string,
    method: ServerToClientMethod,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<unknown>;
}

const SERVER_REQUESTS: ReadonlySet<string> = new Set([
  "elicitation/create",
  "sampling/createMessage",
  "roots/list",
]);

/**
 * `tasks/get`, `tasks/result` or `tasks/cancel` of a legacy session on a bridged route, in the
 * 2025-11-25 shape; each status change seen on the way is told to the session once.
 */
export async function bridgedTaskMethod(
  scope: BridgeScope,
  route: TaskRoute,
  method: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const current = await currentTask(scope, route, signal);
  if (method === "tasks/get") return legacyTaskOf(current);
  if (method === "tasks/cancel") {
    if (TERMINAL.has(String(current.status))) {
      throw new JSONRPCError(INVALID_PARAMS, `Task ${route.taskId} is already ${current.status}`, {
        taskId: route.taskId,
      });
    }
    await forwardTaskMethod(scope.routes, scope.backends, {
      method: "tasks/cancel",
      params: { taskId: route.taskId },
      caller: route.caller,
      signal,
    });
    return legacyTaskOf(await currentTask(scope, route, signal));
  }
  let detail = current;
  while (!TERMINAL.has(String(detail.status))) {
    if (await answerInputs(scope, route, detail, signal)) {
      detail = await currentTask(scope, route, signal);
      continue;
    }
    const pollMs = typeof detail.pollIntervalMs === "number" ? detail.pollIntervalMs : 1000;
    await pause(scope.clock, Math.max(10, pollMs), signal);
    detail = await currentTask(scope, route, signal);
  }
  return payloadOf(route.taskId, detail);
}

/**
 * Asks the session the questions of an `input_required` task not asked yet (another `tasks/result`
 * may be asking some) and sends the answers to the backend; false when there was none to ask. A
 * question the session cannot answer (no capability, an error) cancels the task at its backend and
 * fails `tasks/result` with why.
 */
async function answerInputs(
  scope: BridgeScope,
  route: TaskRoute,
  detail: Record<string, unknown>,
  signal: AbortSignal,
): Promise<boolean> {
  const requests = detail.inputRequests;
  if (detail.status !== "input_required" || typeof requests !== "object" || requests === null) {
    return false;
  }
  if (route.bridged === undefined) return false;
  route.bridged.asking ??= new Set();
  const asking = route.bridged.asking;
  const fresh = Object.entries(
    requests as Record<string, { method?: unknown; params?: unknown }>,
  ).filter(([key]) => !asking.has(key));
  if (fresh.length === 0) return false;
  for (const [key] of fresh) asking.add(key);
  try {
    const answers = await Promise.all(
      fresh.map(
        async ([key, input]): Promise<[string, unknown]> => [
          key,
          await askSession(scope, route, input, signal),
        ],
      ),
    ).catch(async (error: unknown) => {
      if (signal.aborted) throw error;
      await forwardTaskMethod(scope.routes, scope.backends, {
        method: "tasks/cancel",
        params: { taskId: route.taskId },
        caller: route.caller,
        signal,
      }).catch(() => {});
      throw inputFailed(route.taskId, error);
    });
    await forwardTaskMethod(scope.routes, scope.backends, {
      method: "tasks/update",
      params: { taskId: route.taskId, inputResponses: Object.fromEntries(answers) },
      caller: route.caller,
      signal,
    });
    return true;
  } finally {
    for (const [key] of fresh) asking.delete(key);
  }
}

/** One question of the backend's task, asked of the session as a request naming the task. */
function askSession(
  scope: BridgeScope,
  route: TaskRoute,
  input: { method?: unknown; params?: unknown },
  signal: AbortSignal,
): Promise<unknown> {
  const method = String(input.method);
  if (!SERVER_REQUESTS.has(method)) {
    return Promise.reject(new JSONRPCError(INVALID_PARAMS, `Unknown input request ${method}`));
  }
  const params = (
    typeof input.params === "object" && input.params !== null ? input.params : {}
  ) as Record<string, unknown>;
  const meta = params._meta as Record<string, unknown> | undefined;
  const related = { [RELATED_TASK_META_KEY]: { taskId: route.taskId } };
  return scope.ask(
    route.backend,
    method as ServerToClientMethod,
    { ...params, _meta: { ...meta, ...related } },
    signal,
  );
}

/** Why a bridged task's input could not be given (its task is cancelled at the backend). */
function inputFailed(taskId: string, error: unknown): JSONRPCError {
  const reason = error instanceof Error ? error.message : String(error);
  const code = JSONRPCError.isInstance(error) ? error.code : GatewayErrorCode.GatewayInternalError;
  return new JSONRPCError(
    code,
    `Task ${taskId} needs input this session could not give (${reason}); the gateway cancelled the task`,
    { taskId },
  );
}

/** The backend's task now (under the router's id); a new status is told to the session. */
async function currentTask(
  scope: BridgeScope,
  route: TaskRoute,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const detail = (await forwardTaskMethod(scope.routes, scope.backends, {
    method: "tasks/get",
    params: { taskId: route.taskId },
    caller: route.caller,
    signal,
  })) as Record<string, unknown>;
  const status = String(detail.status);
  if (route.bridged !== undefined && route.bridged.status !== status) {
    route.bridged.status = status;
    scope.tell(legacyTaskOf(detail));
  }
  return detail;
}

/** What `tasks/result` answers for an ended task: the tool's result, or its error. */
function payloadOf(taskId: string, detail: Record<string, unknown>): Record<string, unknown> {
  const related = { [RELATED_TASK_META_KEY]: { taskId } };
  if (detail.status === "completed" && typeof detail.result === "object" && detail.result) {
    const { resultType: _dropped, ...result } = detail.result as Record<string, unknown>;
    const meta = result._meta as Record<string, unknown> | undefined;
    return { ...result, _meta: { ...meta, ...related } };
  }
  const error = detail.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (detail.status === "failed" && typeof error?.code === "number") {
    throw new JSONRPCError(error.code, String(error.message), error.data);
  }
  throw new JSONRPCError(ErrorCode.InternalError, `Task ${taskId} was ${detail.status}`, {
    taskId,
  });
}

function pause(clock: RouterClock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
