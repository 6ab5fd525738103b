import type { RouterState } from "../router/router-state.js";
import { forwardTaskMethod } from "../tasks/front-tasks.js";
import {
  abandonCallerTasks,
  LEGACY_TASK_METHODS,
  legacyTaskCaller,
  listLegacyTasks,
} from "../tasks/legacy-tasks.js";
import { asParams } from "./params.js";
import type { SessionCatalogue } from "./session-catalogue.js";
import type { SessionLifecycle } from "./session-lifecycle.js";

/**
 * The 2025-11-25 task methods of one session (the router README, "Tasks (2025-11-25)"): each
 * task id is looked up among this session's tasks only (another session's is "unknown" like an id
 * never issued), and goes to the backend that created the task as this session's call (what the
 * backend asks during `tasks/result` reaches this client); `tasks/list` lists this session's tasks. Returns what to do when the session
 * ends: cancel its tasks at their backends, since nobody can reach them any more.
 */
export function handleSessionTasks(
  sessionId: string,
  lifecycle: SessionLifecycle,
  view: SessionCatalogue,
  state: RouterState,
): () => void {
  const caller = legacyTaskCaller(sessionId);
  for (const method of LEGACY_TASK_METHODS) {
    lifecycle.handle(method, (params, context) =>
      forwardTaskMethod(state.tasks, view.backends(), {
        method,
        params: asParams(params),
        caller,
        signal: context.signal,
        cause: { caller: sessionId, requestId: context.id },
      }),
    );
  }
  lifecycle.handle("tasks/list", (_params, context) =>
    listLegacyTasks(state.tasks, view.backends(), caller, context.signal),
  );
  return () => abandonCallerTasks(state.tasks, caller, view.backends());
}
