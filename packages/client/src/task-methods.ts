import type { JSONRPCParams } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import type { CallOptions, Client, ListOptions } from "./client-types.js";

/** What the task methods need from the client. */
export interface TaskMethodsScope {
  readonly send: (
    method: string,
    params?: JSONRPCParams,
    callOptions?: CallOptions,
  ) => Promise<unknown>;
  readonly page: (method: string, listOptions?: ListOptions) => Promise<unknown>;
  /** The era and capabilities of the connected server (undefined before connect). */
  readonly server: () =>
    | { era: "legacy" | "modern"; capabilities: v2025_11_25.ServerCapabilities }
    | undefined;
}

/**
 * The 2025-11-25 task methods (experimental in that revision): a task-augmented `tools/call`
 * (`params.task`), `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`. They need a legacy
 * session whose server declared `capabilities.tasks` (and `requests.tools.call` for the call);
 * otherwise they reject without sending anything.
 */
export function createTaskMethods(
  scope: TaskMethodsScope,
): Pick<Client, "callToolAsTask" | "getTask" | "getTaskResult" | "listTasks" | "cancelTask"> {
  const requireTasks = (method: string, needsToolCalls = false) => {
    const server = scope.server();
    const tasks = server?.capabilities.tasks as
      | { requests?: { tools?: { call?: unknown } } }
      | undefined;
    if (server?.era !== "legacy" || tasks === undefined) {
      throw new Error(`${method} needs a 2025-11-25 session with a server that declared tasks`);
    }
    if (needsToolCalls && tasks.requests?.tools?.call === undefined) {
      throw new Error(`${method}: the server does not run tools/call as tasks`);
    }
  };
  const onTask = (method: string, taskId: string, callOptions?: CallOptions) => {
    requireTasks(method);
    return scope.send(method, { taskId }, callOptions);
  };
  return {
    async callToolAsTask(params, callOptions = {}) {
      requireTasks("callToolAsTask", true);
      const { ttl, ...rest } = callOptions;
      const task = ttl === undefined ? {} : { ttl };
      return (await scope.send(
        "tools/call",
        { ...params, task },
        rest,
      )) as v2025_11_25.CreateTaskResult;
    },
    getTask: async (taskId, callOptions) =>
      (await onTask("tasks/get", taskId, callOptions)) as v2025_11_25.GetTaskResult,
    getTaskResult: async (taskId, callOptions) =>
      (await onTask("tasks/result", taskId, callOptions)) as v2025_11_25.CallToolResult,
    cancelTask: async (taskId, callOptions) =>
      (await onTask("tasks/cancel", taskId, callOptions)) as v2025_11_25.CancelTaskResult,
    async listTasks(listOptions) {
      requireTasks("listTasks");
      return (await scope.page("tasks/list", listOptions)) as v2025_11_25.ListTasksResult;
    },
  };
}
