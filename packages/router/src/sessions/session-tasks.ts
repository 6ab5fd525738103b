import type { JSONRPCId } from "@patchbay/jsonrpc-core";
import type { RouterState } from "../router/router-state.js";
import { forwardTaskMethod } from "../tasks/front-tasks.js";
import { type BridgeScope, bridgedTaskMethod } from "../tasks/legacy-modern-bridge.js";
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
 * backend asks during `tasks/result` reaches this client); `tasks/list` lists this session's tasks.
 * A task on a 2026-07-28 backend (bridged) is translated between the eras, its status changes told
 * with `tell`, its questions asked of the client with `ask` (related to the `tasks/result` that
 * waits). Returns what to do when the session ends: cancel its tasks at their backends, since
 * nobody can reach them any more.
 */
export function handleSessionTasks(
  sessionId: string,
  lifecycle: SessionLifecycle,
  view: SessionCatalogue,
  state: RouterState,
  client: {
    tell: (task: Record<string, unknown>) => void;
    ask: (
      request: Parameters<BridgeScope["ask"]>,
      relatedRequestId: JSONRPCId | undefined,
    ) => Promise<unknown>;
  },
): () => void {
  const caller = legacyTaskCaller(sessionId);
  const bridge = (relatedRequestId?: JSONRPCId): BridgeScope => ({
    routes: state.tasks,
    backends: view.backends(),
    clock: state.clock,
    tell: client.tell,
    ask: (...request) => client.ask(request, relatedRequestId),
  });
  for (const method of LEGACY_TASK_METHODS) {
    lifecycle.handle(method, (params, context) => {
      const route = state.tasks.get(caller, asParams(params).taskId);
      if (route.bridged !== undefined) {
        return bridgedTaskMethod(bridge(context.id), route, method, context.signal);
      }
      return forwardTaskMethod(state.tasks, view.backends(), {
        method,
        params: asParams(params),
        caller,
        signal: context.signal,
        cause: { caller: sessionId, requestId: context.id },
      });
    });
  }
  lifecycle.handle("tasks/list", (_params, context) =>
    listLegacyTasks(state.tasks, view.backends(), caller, context.signal, (route) =>
      bridgedTaskMethod(bridge(), route, "tasks/get", context.signal),
    ),
  );
  return () => abandonCallerTasks(state.tasks, caller, view.backends());
}
