import { MethodNotFoundError } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import {
  callToolAsLegacyTask,
  handleLegacyTaskMethod,
  LEGACY_TASK_METHODS,
  servesLegacyTasks,
} from "../tasks/legacy-tasks.js";
import type { ToolEntry } from "../tool.js";
import { type HandlerScope, readCursor } from "./handler-scope.js";

/** Who owns the tasks a legacy session creates: that session alone. */
function sessionOwner(scope: HandlerScope): string {
  return `session:${scope.session.id}`;
}

/** Whether the session negotiated a revision with tasks (2025-11-25 on). */
export function sessionServesTasks(scope: HandlerScope): boolean {
  const version = scope.state.protocolVersion;
  return version !== undefined && servesLegacyTasks(version);
}

/** A tool's `tools/list` entry for a session with tasks: plus `execution.taskSupport`. */
export function toolDefinitionFor(scope: HandlerScope, entry: ToolEntry): v2025_11_25.Tool {
  const taskSupport = entry.config.taskSupport;
  if (taskSupport === undefined || !sessionServesTasks(scope)) return entry.definition;
  return { ...entry.definition, execution: { taskSupport } };
}

/**
 * Runs a `tools/call` of a task tool in a session with tasks: with `params.task` as a task
 * (`CreateTaskResult`), without it directly, unless the tool requires a task (-32601). Returns
 * undefined when the call is an ordinary one.
 */
export function taskToolCall(
  scope: HandlerScope,
  entry: ToolEntry,
  params: Record<string, unknown>,
  context: Parameters<typeof callToolAsLegacyTask>[0]["context"],
): Record<string, unknown> | undefined {
  const taskSupport = entry.config.taskSupport;
  if (taskSupport === undefined || !sessionServesTasks(scope)) return undefined;
  const task = params.task;
  if (typeof task !== "object" || task === null || Array.isArray(task)) {
    if (taskSupport !== "required") return undefined;
    throw new MethodNotFoundError(`Tool ${entry.name} must be called as a task (params.task)`, {
      name: entry.name,
    });
  }
  const { session, host } = scope;
  return callToolAsLegacyTask({
    store: host.tasks,
    entry,
    args: params.arguments,
    owner: sessionOwner(scope),
    task: task as Record<string, unknown>,
    context,
    compile: host.compileJsonSchema,
    notifyStatus: (fields) => {
      if (session.closed) return;
      void session.notify("notifications/tasks/status", fields).catch(() => undefined);
    },
  });
}

/**
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` (2025-11-25) for sessions that
 * negotiated tasks; a session's tasks are cancelled when it closes (no one else can reach them).
 */
export function installTaskHandlers(scope: HandlerScope): void {
  const { host } = scope;
  for (const method of LEGACY_TASK_METHODS) {
    scope.handle(method, async (params, context) => {
      if (!sessionServesTasks(scope)) throw new MethodNotFoundError(undefined, { method });
      return await handleLegacyTaskMethod(host.tasks, method, params, sessionOwner(scope), {
        signal: context.signal,
        pageSize: host.pageSize,
        cursor: method === "tasks/list" ? readCursor(params, method) : undefined,
      });
    });
  }
  scope.session.onClose(() => host.tasks.cancelAll(sessionOwner(scope)));
}
