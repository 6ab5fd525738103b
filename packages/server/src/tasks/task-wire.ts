import { type FrameInfo, JSONRPCError } from "@patchbay/jsonrpc-core";
import {
  createMissingRequiredClientCapabilityError,
  type ModernRequestMeta,
  TASKS_EXTENSION_ID,
} from "@patchbay/mcp-types";
import type { TaskRecord, TaskStore } from "./task-store.js";

/** Whether a modern request declared the tasks extension in its client capabilities. */
export function declaresTasks(meta: ModernRequestMeta): boolean {
  const extensions = (meta.clientCapabilities as { extensions?: unknown }).extensions;
  return (
    typeof extensions === "object" &&
    extensions !== null &&
    (extensions as Record<string, unknown>)[TASKS_EXTENSION_ID] !== undefined
  );
}

/** -32021 naming the tasks extension as the capability the request lacks. */
export function tasksExtensionRequired(what: string): JSONRPCError {
  const error = createMissingRequiredClientCapabilityError(
    { extensions: { [TASKS_EXTENSION_ID]: {} } },
    `${what} needs the client to declare the extension ${TASKS_EXTENSION_ID}`,
  );
  return new JSONRPCError(error.code, error.message, error.data);
}

/**
 * Who a task belongs to: the authentication result the transport attached to the request
 * (`info.extra.authInfo`), compared as canonical JSON. A request without one (no auth configured,
 * or stdio) is "anonymous": all such callers share one owner, and a task id (128 random bits) is then
 * the only thing that keeps one caller from another's task.
 */
export function taskOwnerOf(info: FrameInfo | undefined): string {
  const authInfo = info?.extra?.authInfo;
  if (authInfo === undefined || authInfo === null) return "anonymous";
  return `auth:${canonicalJson(authInfo)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const keys = Object.keys(value).sort();
  const record = value as Record<string, unknown>;
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

/** The `Task` fields of a task (`CreateTaskResult` is these plus `resultType: "task"`). */
export function taskFields(store: TaskStore, task: TaskRecord): Record<string, unknown> {
  return { ...taskState(task), ttlMs: task.ttlMs, pollIntervalMs: store.pollIntervalMs };
}

/** What both eras' `Task` say alike: id, status and its times. */
function taskState(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
  };
}

/** `tasks/get`'s `DetailedTask`: the task plus its result, error or pending input requests. */
export function detailedTask(store: TaskStore, task: TaskRecord): Record<string, unknown> {
  const detail = taskFields(store, task);
  if (task.status === "completed" && task.result !== undefined) detail.result = task.result;
  if (task.status === "failed" && task.error !== undefined) detail.error = task.error;
  if (task.status === "input_required") detail.inputRequests = store.pendingInputs(task);
  return detail;
}

/**
 * A task as 2025-11-25 shows it (`Task`: `tasks/get`, `tasks/list`, `tasks/cancel`, status
 * notifications, and inside `CreateTaskResult`); a failed task's error message is its status message.
 */
export function legacyTaskFields(store: TaskStore, task: TaskRecord): Record<string, unknown> {
  const fields = { ...taskState(task), ttl: task.ttlMs, pollInterval: store.pollIntervalMs };
  if (task.status !== "failed" || task.error === undefined) return fields;
  return { ...fields, statusMessage: task.error.message };
}
