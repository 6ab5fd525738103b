import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { checkInputAnswer } from "../modern/input-rounds.js";
import type { TaskStore } from "./task-store.js";
import { detailedTask } from "./task-wire.js";

/**
 * The methods of the extension `io.modelcontextprotocol/tasks` (2026-07-28): `tasks/get` (the task
 * with its result, error or input requests inlined), `tasks/update` (answers to input requests) and
 * `tasks/cancel`; the last two are acknowledged with an empty result. `tasks/result` and
 * `tasks/list` do not exist in the extension and stay -32601.
 */
export const TASK_METHODS: ReadonlySet<string> = new Set([
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
]);

/** Answers one of {@link TASK_METHODS} for `owner`. */
export function handleTaskMethod(
  store: TaskStore,
  method: string,
  params: Record<string, unknown>,
  owner: string,
): Record<string, unknown> {
  if (method === "tasks/get") return detailedTask(store, store.get(owner, params.taskId));
  if (method === "tasks/cancel") {
    store.cancel(owner, params.taskId);
    return {};
  }
  const { inputResponses } = params;
  if (
    typeof inputResponses !== "object" ||
    inputResponses === null ||
    Array.isArray(inputResponses)
  ) {
    throw new InvalidParamsError("inputResponses must be an object keyed by input request");
  }
  store.answer(owner, params.taskId, inputResponses as Record<string, unknown>, checkInputAnswer);
  return {};
}
