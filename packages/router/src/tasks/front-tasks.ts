import { JSONRPCError, type JSONRPCParams } from "@patchbay/jsonrpc-core";
import { TASKS_EXTENSION_ID } from "@patchbay/mcp-types";
import type { CallCause } from "../backends/call-causes.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { INVALID_PARAMS, mapBackendError } from "../errors/map-error.js";
import { toJSONRPCError } from "../sessions/params.js";
import { type TaskRoute, type TaskRoutes, unknownTask } from "./task-routes.js";

/**
 * The methods of the extension `io.modelcontextprotocol/tasks` (2026-07-28) the front routes by
 * task id; `tasks/result` and `tasks/list` do not exist in the extension.
 */
export const TASK_METHODS: ReadonlySet<string> = new Set([
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
]);

/** What declaring the extension toward a backend looks like (it has no settings). */
export const TASKS_DECLARED = { [TASKS_EXTENSION_ID]: {} } as const;

/**
 * A `tools/call` answer of `backend`: a `CreateTaskResult` (`resultType: "task"`) is routed for
 * `caller` and handed on under the router's id, with the TTL the route keeps; any other answer is
 * handed on as it is. Past the limits the backend's task is cancelled and the call fails.
 * `asked`: the legacy session behind the caller's modern front, which the task's backend asks, and
 * the client capabilities the caller declared in this call (what the backend may ask it).
 */
export function routeCreatedTask(
  routes: TaskRoutes,
  answer: unknown,
  caller: string,
  backend: RouterBackend | undefined,
  asked?: { readonly session: string; readonly capabilities: Readonly<Record<string, unknown>> },
): unknown {
  if (typeof answer !== "object" || answer === null) return answer;
  const result = answer as Record<string, unknown>;
  if (result.resultType !== "task" || typeof result.taskId !== "string") return answer;
  if (backend === undefined) {
    throw new JSONRPCError(
      GatewayErrorCode.GatewayInternalError,
      "A backend created a task, but the tool's backend is no longer in this caller's catalogue",
    );
  }
  const ttlMs = routes.ttlFor(result.ttlMs);
  let route: TaskRoute;
  try {
    route = routes.add(caller, backend.name, result.taskId, ttlMs, asked ?? {});
  } catch (error) {
    cancelAbandonedTasks([{ backend: backend.name, backendTaskId: result.taskId }], [backend]);
    throw error;
  }
  return replaceTaskId({ ...result, ttlMs }, result.taskId, route.taskId);
}

/** The part of a `Backend` the front's tasks use. */
export interface RouterBackend {
  readonly name: string;
  request(
    method: string,
    params: JSONRPCParams | undefined,
    options: { signal?: AbortSignal; extensions?: typeof TASKS_DECLARED; cause?: CallCause },
  ): Promise<unknown>;
}

/**
 * A task method of `caller` (`tasks/get`, `tasks/update` or `tasks/cancel` of the extension;
 * 2025-11-25's `tasks/get`, `tasks/result` or `tasks/cancel`): sent to the backend among
 * `backends` (the caller's session's) that created the task under its own id (declaring the
 * extension toward a modern backend; a legacy one ignores it), marked as the `cause`'s call when
 * given, the answer handed back under the router's id. A task the backend no longer knows is
 * forgotten and answered "unknown".
 */
export async function forwardTaskMethod(
  routes: TaskRoutes,
  backends: readonly RouterBackend[],
  request: {
    method: string;
    params: Record<string, unknown>;
    caller: string;
    signal: AbortSignal;
    cause?: CallCause;
  },
): Promise<unknown> {
  const route = routes.get(request.caller, request.params.taskId);
  const backend = backends.find((candidate) => candidate.name === route.backend);
  if (backend === undefined) throw unknownTask(route.taskId);
  const { _meta: _dropped, ...rest } = request.params;
  const options: Parameters<RouterBackend["request"]>[2] = {
    signal: request.signal,
    extensions: TASKS_DECLARED,
  };
  if (request.cause !== undefined) options.cause = request.cause;
  try {
    const answer = await backend.request(
      request.method,
      { ...rest, taskId: route.backendTaskId },
      options,
    );
    return replaceTaskId(answer, route.backendTaskId, route.taskId);
  } catch (error) {
    if (namesUnknownTask(error, route.backendTaskId)) {
      routes.delete(route.taskId);
      throw unknownTask(route.taskId);
    }
    const mapped = toJSONRPCError(mapBackendError(error, route.backend));
    throw replaceTaskId(mapped, route.backendTaskId, route.taskId);
  }
}

/** Cancels tasks nobody can reach any more at the backends among `backends` that created them. */
export function cancelAbandonedTasks(
  routes: readonly Pick<TaskRoute, "backend" | "backendTaskId">[],
  backends: readonly RouterBackend[],
): void {
  for (const route of routes) {
    const backend = backends.find((candidate) => candidate.name === route.backend);
    backend
      ?.request("tasks/cancel", { taskId: route.backendTaskId }, { extensions: TASKS_DECLARED })
      .catch(() => {});
  }
}

/** True for a backend's -32602 about `backendTaskId` (an unknown or expired task). */
function namesUnknownTask(error: unknown, backendTaskId: string): boolean {
  return (
    JSONRPCError.isInstance(error) &&
    error.code === INVALID_PARAMS &&
    (error.data as { taskId?: unknown } | undefined)?.taskId === backendTaskId
  );
}

/** A copy of `value` with the string `from` replaced by `to` wherever it is, or a part of, a string. */
export function replaceTaskId<T>(value: T, from: string, to: string): T {
  if (typeof value === "string") return value.replaceAll(from, to) as T;
  if (JSONRPCError.isInstance(value)) {
    return new JSONRPCError(
      value.code,
      value.message.replaceAll(from, to),
      replaceTaskId(value.data, from, to),
    ) as T;
  }
  if (Array.isArray(value)) return value.map((item) => replaceTaskId(item, from, to)) as T;
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = replaceTaskId(item, from, to);
  return copy as T;
}
