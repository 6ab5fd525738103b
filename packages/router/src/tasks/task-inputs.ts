import { ImplementationErrorCode, JSONRPCError } from "@patchbay/jsonrpc-core";
import { RELATED_TASK_META_KEY, v2026_07_28 } from "@patchbay/mcp-types";
import { INPUT_KEY_META_KEY } from "@patchbay/server";
import type { RouterClock } from "../backends/router-clock.js";
import { INVALID_PARAMS } from "../errors/map-error.js";

/** Most questions a 2025-11-25 backend may leave pending for one task routed for a modern caller. */
export const MAX_INPUTS_PER_TASK = 16;

/** The result shape each kind of input request must be answered with (2026-07-28 schemas). */
export const ANSWER_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean } }> = {
  "elicitation/create": v2026_07_28.ElicitResultSchema,
  "sampling/createMessage": v2026_07_28.CreateMessageResultSchema,
  "roots/list": v2026_07_28.ListRootsResultSchema,
};

interface PendingInput {
  readonly method: string;
  readonly params: Record<string, unknown>;
  resolve(answer: unknown): void;
  reject(reason: unknown): void;
}

interface TaskEntry {
  readonly inputs: Map<string, PendingInput>;
  readonly timer: unknown;
}

/**
 * What 2025-11-25 backends ask during tasks the router routes for modern (2026-07-28) callers: a
 * backend's `elicitation/create`, `sampling/createMessage` or `roots/list` naming one of its tasks
 * (`_meta["io.modelcontextprotocol/related-task"]`) waits here under a key the router makes (the
 * backend's own, `_meta["io.patchbay/input-key"]`, when it names one not pending), is
 * shown in the extension's `tasks/get` (`inputRequests`) and answered by its `tasks/update`
 * (`inputResponses`). At most `MAX_INPUTS_PER_TASK` wait per task; a task cancelled, forgotten or
 * past its route's end rejects what it still waits for.
 */
export class TaskInputs {
  readonly #clock: Pick<RouterClock, "now" | "setTimeout" | "clearTimeout">;
  readonly #tasks = new Map<string, TaskEntry>();
  #asked = 0;

  constructor(clock: Pick<RouterClock, "now" | "setTimeout" | "clearTimeout">) {
    this.#clock = clock;
  }

  /** Waits for the caller's answer to a backend's question of task `taskId` (the router's id). */
  ask(
    task: { readonly taskId: string; readonly expiresAt: number },
    method: string,
    params: unknown,
    signal: AbortSignal,
  ): Promise<unknown> {
    const entry = this.#entryOf(task);
    if (entry.inputs.size >= MAX_INPUTS_PER_TASK) {
      return Promise.reject(
        new JSONRPCError(
          ImplementationErrorCode.ServerBusy,
          `Task ${task.taskId} has ${MAX_INPUTS_PER_TASK} input requests pending already; answer them first`,
        ),
      );
    }
    this.#asked += 1;
    const wanted = (params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[
      INPUT_KEY_META_KEY
    ];
    const key =
      typeof wanted === "string" && !entry.inputs.has(wanted)
        ? wanted
        : `${method.split("/")[0]}-${this.#asked}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => this.#settle(task.taskId, key, (input) => input.reject(signal.reason));
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      const done = () => signal.removeEventListener("abort", onAbort);
      entry.inputs.set(key, {
        method,
        params: shownParams(params),
        resolve: (answer) => {
          done();
          resolve(answer);
        },
        reject: (reason) => {
          done();
          reject(reason);
        },
      });
    });
  }

  /** The questions task `taskId` waits for, by key; undefined when none. */
  requests(taskId: string): Record<string, { method: string; params: unknown }> | undefined {
    const inputs = this.#tasks.get(taskId)?.inputs;
    if (inputs === undefined || inputs.size === 0) return undefined;
    return Object.fromEntries(
      [...inputs].map(([key, { method, params }]) => [key, { method, params }]),
    );
  }

  /**
   * Answers task `taskId`'s questions from `tasks/update`'s `inputResponses`: every answer to a
   * pending question is checked first (a malformed one is -32602 and nothing is answered), then
   * each is delivered. Keys naming no pending question are ignored.
   */
  answer(taskId: string, responses: unknown): void {
    if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
      throw new JSONRPCError(
        INVALID_PARAMS,
        "inputResponses must be an object keyed by input request",
      );
    }
    const inputs = this.#tasks.get(taskId)?.inputs;
    if (inputs === undefined) return;
    const answers = responses as Record<string, unknown>;
    const ready: [string, unknown][] = [];
    for (const [key, input] of inputs) {
      if (!Object.hasOwn(answers, key)) continue;
      if (ANSWER_SCHEMAS[input.method]?.safeParse(answers[key]).success !== true) {
        throw new JSONRPCError(
          INVALID_PARAMS,
          `inputResponses["${key}"] is not a valid ${input.method} result`,
        );
      }
      ready.push([key, answers[key]]);
    }
    for (const [key, answer] of ready) {
      this.#settle(taskId, key, (input) => input.resolve(answer));
    }
  }

  /** Rejects everything task `taskId` waits for (cancelled, ended, expired or forgotten). */
  reject(taskId: string, reason: Error): void {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return;
    for (const key of [...entry.inputs.keys()]) {
      this.#settle(taskId, key, (input) => input.reject(reason));
    }
  }

  #entryOf(task: { readonly taskId: string; readonly expiresAt: number }): TaskEntry {
    const existing = this.#tasks.get(task.taskId);
    if (existing !== undefined) return existing;
    const timer = this.#clock.setTimeout(
      () => this.reject(task.taskId, new Error(`Task ${task.taskId} expired at the gateway`)),
      Math.max(0, task.expiresAt - this.#clock.now()),
    );
    const entry: TaskEntry = { inputs: new Map(), timer };
    this.#tasks.set(task.taskId, entry);
    return entry;
  }

  /** Takes one pending question off the task (settled by `how`); the task's entry goes with the last. */
  #settle(taskId: string, key: string, how: (input: PendingInput) => void): void {
    const entry = this.#tasks.get(taskId);
    const input = entry?.inputs.get(key);
    if (entry === undefined || input === undefined) return;
    entry.inputs.delete(key);
    if (entry.inputs.size === 0) {
      this.#clock.clearTimeout(entry.timer);
      this.#tasks.delete(taskId);
    }
    how(input);
  }
}

/** A backend's question as the caller sees it: without the task it names (the caller knows it) or its key. */
function shownParams(params: unknown): Record<string, unknown> {
  const body = (typeof params === "object" && params !== null ? params : {}) as Record<
    string,
    unknown
  >;
  const { _meta: meta, ...rest } = body;
  if (typeof meta !== "object" || meta === null) return rest;
  const {
    [RELATED_TASK_META_KEY]: _task,
    [INPUT_KEY_META_KEY]: _key,
    ...kept
  } = meta as Record<string, unknown>;
  return Object.keys(kept).length === 0 ? rest : { ...rest, _meta: kept };
}
