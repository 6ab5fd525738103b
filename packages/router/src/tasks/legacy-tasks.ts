import {
  cancelAbandonedTasks,
  forwardTaskMethod,
  type RouterBackend,
  replaceTaskId,
} from "./front-tasks.js";
import type { TaskRoute, TaskRoutes } from "./task-routes.js";

/**
 * The 2025-11-25 (experimental) tasks of legacy sessions: a `tools/call` with `params.task` whose
 * backend answers `CreateTaskResult` (`{ task: Task }`) is recorded in the router's one task table
 * (`TaskRoutes`, shared with the modern front's extension tasks) for the calling session, under a
 * router-made id; `tasks/get|result|cancel` go by it to the creating backend; `tasks/list` is
 * answered from the table; `notifications/tasks/status` reach only the owning session.
 */

/** The methods a legacy session routes by task id (`tasks/list` is answered from the table). */
export const LEGACY_TASK_METHODS: readonly string[] = ["tasks/get", "tasks/result", "tasks/cancel"];

/** The notification a backend sends when one of its tasks changes status (2025-11-25). */
export const TASK_STATUS_NOTIFICATION = "notifications/tasks/status";

/** What the gateway offers a 2025-11-25 client that declared tasks, when a backend it sees has them. */
export const LEGACY_TASKS_CAPABILITY = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
} as const;

/**
 * The caller a legacy session's tasks belong to in the task table. It starts with NUL, which a
 * modern caller does not (a stdio transport's `transport-<n>`, an OAuth principal
 * `<issuer>#<subject>`, `anonymous`, or a static token's name, which the operator chooses).
 */
export function legacyTaskCaller(sessionId: string): string {
  return `\u0000session\u0000${sessionId}`;
}

/** The session whose tasks `caller` names, or undefined for a modern caller. */
export function sessionOfTaskCaller(caller: string): string | undefined {
  const prefix = "\u0000session\u0000";
  return caller.startsWith(prefix) ? caller.slice(prefix.length) : undefined;
}

/** The session a route's task was created on: a legacy session's own, or a modern front's. */
export function sessionOfRoute(route: TaskRoute): string | undefined {
  return sessionOfTaskCaller(route.caller) ?? route.session;
}

/** True when a backend's initialize result offers task-augmented `tools/call` (2025-11-25). */
export function offersLegacyTasks(capabilities: unknown): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } })?.tasks;
  return tasks?.requests?.tools?.call !== undefined;
}

/**
 * A task-augmented `tools/call` answer of `backend` to session `sessionId`: a `CreateTaskResult`
 * is routed for the session and handed on under the router's id, with the TTL the route keeps
 * (`task.ttl`, ms), after the statuses the backend sent of it before this answer reached the
 * router (`tell`); any other answer is handed on as it is. Past the limits the backend's task is
 * cancelled and the call fails (-32010).
 */
export function routeCreatedLegacyTask(
  routes: TaskRoutes,
  answer: unknown,
  session: { readonly id: string; tell(status: Record<string, unknown>): void },
  backend: RouterBackend,
): unknown {
  const task = (answer as { task?: unknown } | null)?.task;
  if (typeof task !== "object" || task === null) return answer;
  const backendTaskId = (task as { taskId?: unknown }).taskId;
  if (typeof backendTaskId !== "string") return answer;
  const ttl = routes.ttlFor((task as { ttl?: unknown }).ttl);
  let route: TaskRoute;
  try {
    route = routes.add(legacyTaskCaller(session.id), backend.name, backendTaskId, ttl);
  } catch (error) {
    cancelAbandonedTasks([{ backend: backend.name, backendTaskId }], [backend]);
    throw error;
  }
  for (const status of routes.takeEarlyStatuses(backend.name, backendTaskId, session.id)) {
    session.tell(replaceTaskId(status, backendTaskId, route.taskId));
  }
  const result = { ...(answer as Record<string, unknown>), task: { ...task, ttl } };
  return replaceTaskId(result, backendTaskId, route.taskId);
}

/**
 * `tasks/list` of a legacy session: the caller's tasks in the router's table (a backend's own list
 * would show every session's tasks), each as its backend reports it now under the router's id (a
 * bridged one by `getBridged`, in the 2025-11-25 shape); a
 * task its backend no longer knows is forgotten and left out. One page: a caller has at most
 * `maxTasksPerCaller` tasks.
 */
export async function listLegacyTasks(
  routes: TaskRoutes,
  backends: readonly RouterBackend[],
  caller: string,
  signal: AbortSignal,
  getBridged: (route: TaskRoute) => Promise<unknown>,
): Promise<{ tasks: unknown[] }> {
  const owned = routes.ofCaller(caller);
  const tasks = await Promise.all(
    owned.map((route) =>
      (route.bridged === undefined
        ? forwardTaskMethod(routes, backends, {
            method: "tasks/get",
            params: { taskId: route.taskId },
            caller,
            signal,
          })
        : getBridged(route)
      ).then(
        (task) => [withoutMeta(task)],
        () => [],
      ),
    ),
  );
  return { tasks: tasks.flat() };
}

/**
 * A backend's `notifications/tasks/status` for the task table: the caller whose task it is and
 * the params under the router's id, or undefined when no caller's task (nobody is told; it is held
 * a while for a route about to be made, see `TaskRoutes.holdEarlyStatus`). `owner`: the session
 * of a per-session backend, whose task ids are its own.
 */
export function routeTaskStatus(
  routes: TaskRoutes,
  backend: string,
  params: unknown,
  owner: string | undefined,
): { caller: string; params: Record<string, unknown> } | undefined {
  const backendTaskId = (params as { taskId?: unknown } | undefined)?.taskId;
  if (typeof backendTaskId !== "string") return undefined;
  const caller = owner === undefined ? undefined : legacyTaskCaller(owner);
  const route = routes.findByBackend(backend, backendTaskId, caller);
  if (route === undefined) {
    routes.holdEarlyStatus(backend, backendTaskId, owner, params as Record<string, unknown>);
    return undefined;
  }
  return {
    caller: route.caller,
    params: replaceTaskId(params as Record<string, unknown>, backendTaskId, route.taskId),
  };
}

/** Cancels, at their backends, the tasks of a caller that is gone, and forgets them. */
export function abandonCallerTasks(
  routes: TaskRoutes,
  caller: string,
  backends: readonly RouterBackend[],
): void {
  cancelAbandonedTasks(routes.removeCaller(caller), backends);
}

function withoutMeta(task: unknown): unknown {
  if (typeof task !== "object" || task === null) return task;
  const { _meta: _dropped, ...rest } = task as Record<string, unknown>;
  return rest;
}
