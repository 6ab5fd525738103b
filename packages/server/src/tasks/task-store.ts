import { ImplementationErrorCode, InvalidParamsError, JSONRPCError } from "@patchbay/jsonrpc-core";

/** A task's status (extension `io.modelcontextprotocol/tasks`). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** Limits and timing of a server's tasks. */
export interface TaskStoreOptions {
  /** How long a task stays readable after it was created, in ms (default one hour). */
  ttlMs?: number;
  /** How often a client should poll `tasks/get`, in ms (default 500). */
  pollIntervalMs?: number;
  /** Most live (unexpired) tasks on the server (default 1000). */
  maxTasks?: number;
  /** Most live tasks of one owner (default 100). */
  maxTasksPerOwner?: number;
  /** The clock, in ms since the epoch (default `Date.now`; tests pass a manual one). */
  now?: () => number;
}

/** One input request a running task waits for (answered by `tasks/update`). */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

interface PendingInput extends TaskInputRequest {
  resolve(answer: unknown): void;
}

/** Per-task choices at creation. */
export interface CreateTaskOptions {
  /** A shorter lifetime than the store's `ttlMs` (a longer one is cut to it). */
  ttlMs?: number;
  /** Called after each change of the task's status (the session that created it hears of it). */
  onStatus?: (task: TaskRecord) => void;
}

/** A JSON-RPC error object a failed task reports. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** One task as the store keeps it. */
export interface TaskRecord {
  readonly taskId: string;
  readonly owner: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Its lifetime from creation, in ms. */
  readonly ttlMs: number;
  /** Aborted when the task is cancelled or expires: the work should stop. */
  readonly signal: AbortSignal;
  status: TaskStatus;
  lastUpdatedAt: number;
  result?: Record<string, unknown>;
  error?: TaskError;
}

interface Entry {
  readonly record: TaskRecord;
  readonly abort: AbortController;
  readonly inputs: Map<string, PendingInput>;
  readonly onStatus: ((task: TaskRecord) => void) | undefined;
  /** Resolved once the task is terminal or dropped. */
  readonly settled: Promise<void>;
  readonly settle: () => void;
  /** Requests of the task's handler to the client still pending (see `waitingForInput`). */
  asking?: number;
}

/**
 * The tasks of one server, in memory. A task id is 128 random bits (hex), and a task is
 * visible only to its owner: another owner's id is "unknown" (-32602) like an id never issued.
 * Every task lives `ttlMs` from its creation; expired tasks are dropped (and their work aborted)
 * whenever the store is used, so the store needs no timer.
 */
export class TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly #maxTasks: number;
  readonly #maxTasksPerOwner: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: TaskStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#maxTasks = options.maxTasks ?? 1000;
    this.#maxTasksPerOwner = options.maxTasksPerOwner ?? 100;
    this.#now = options.now ?? Date.now;
  }

  /** Live tasks (after dropping the expired ones). */
  get size(): number {
    this.#sweep();
    return this.#entries.size;
  }

  /** Creates a working task for `owner`; -32010 (retry later) past the server or owner limit. */
  create(owner: string, options: CreateTaskOptions = {}): TaskRecord {
    this.#sweep();
    if (this.#entries.size >= this.#maxTasks) {
      throw busy(`Too many live tasks on this server (limit ${this.#maxTasks}); retry later`);
    }
    let owned = 0;
    for (const entry of this.#entries.values()) if (entry.record.owner === owner) owned += 1;
    if (owned >= this.#maxTasksPerOwner) {
      throw busy(
        `Too many live tasks for this caller (limit ${this.#maxTasksPerOwner}); retry later`,
      );
    }
    const now = this.#now();
    const abort = new AbortController();
    const ttlMs = Math.min(this.ttlMs, Math.max(1, options.ttlMs ?? this.ttlMs));
    const record: TaskRecord = {
      taskId: randomTaskId(),
      owner,
      createdAt: now,
      expiresAt: now + ttlMs,
      ttlMs,
      signal: abort.signal,
      status: "working",
      lastUpdatedAt: now,
    };
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const { onStatus } = options;
    this.#entries.set(record.taskId, {
      record,
      abort,
      inputs: new Map(),
      onStatus,
      settled,
      settle,
    });
    return record;
  }

  /** The owner's live tasks, oldest first. */
  list(owner: string): TaskRecord[] {
    this.#sweep();
    return [...this.#entries.values()]
      .map((entry) => entry.record)
      .filter((record) => record.owner === owner);
  }

  /** Resolves once the task is terminal, expired or dropped (at once if it already is). */
  settled(task: TaskRecord): Promise<void> {
    return this.#entries.get(task.taskId)?.settled ?? Promise.resolve();
  }

  /** Whether the task has ended (completed, failed or cancelled). */
  isTerminal(task: TaskRecord): boolean {
    return TERMINAL.has(task.status);
  }

  /** Cancels every unfinished task of `owner` (its session closed: nobody can reach them). */
  cancelAll(owner: string): void {
    for (const record of this.list(owner)) this.cancel(owner, record.taskId);
  }

  /** The owner's task, or -32602 when it is unknown, expired or someone else's. */
  get(owner: string, taskId: unknown): TaskRecord {
    return this.#entry(owner, taskId).record;
  }

  /** The input requests the task waits for, keyed by the ids `tasks/update` must answer. */
  pendingInputs(task: TaskRecord): Record<string, TaskInputRequest> {
    const inputs = this.#entries.get(task.taskId)?.inputs ?? new Map<string, PendingInput>();
    return Object.fromEntries(
      [...inputs].map(([key, { method, params }]) => [key, { method, params }]),
    );
  }

  /** Parks the task on an input request until `answer` delivers it (rejects when cancelled). */
  ask(task: TaskRecord, key: string, request: TaskInputRequest): Promise<unknown> {
    const entry = this.#entries.get(task.taskId);
    if (entry === undefined || TERMINAL.has(task.status)) {
      return Promise.reject(new Error(`Task ${task.status}`));
    }
    if (entry.inputs.has(key)) {
      return Promise.reject(new InvalidParamsError(`Repeated input request key: ${key}`));
    }
    return new Promise((resolve, reject) => {
      task.signal.addEventListener("abort", () => reject(task.signal.reason), { once: true });
      entry.inputs.set(key, { ...request, resolve });
      this.#setStatus(task, "input_required");
    });
  }

  /**
   * Delivers answers to the owner's task: each key it waits for resumes its asker (`check` may
   * refuse a malformed answer first); other keys are ignored. The task is working again once no
   * input is pending.
   */
  answer(
    owner: string,
    taskId: unknown,
    responses: Record<string, unknown>,
    check: (method: string, key: string, answer: unknown) => void,
  ): void {
    const { record, inputs } = this.#entry(owner, taskId);
    const answered = Object.entries(responses).filter(([key]) => inputs.has(key));
    for (const [key, answer] of answered) check(inputs.get(key)!.method, key, answer);
    for (const [key, answer] of answered) {
      inputs.get(key)!.resolve(answer);
      inputs.delete(key);
    }
    if (inputs.size === 0 && record.status === "input_required") this.#setStatus(record, "working");
  }

  /**
   * Shows the task `input_required` while `asked` (a request to the client) is pending, then
   * `working` again once nothing else is pending (2025-11-25 tasks ask the session directly).
   */
  async waitingForInput<T>(task: TaskRecord, asked: Promise<T>): Promise<T> {
    const entry = this.#entries.get(task.taskId);
    if (entry === undefined || TERMINAL.has(task.status)) return await asked;
    entry.asking = (entry.asking ?? 0) + 1;
    this.#setStatus(task, "input_required");
    try {
      return await asked;
    } finally {
      entry.asking -= 1;
      if (entry.asking === 0 && task.status === "input_required") this.#setStatus(task, "working");
    }
  }

  /** Ends the task with the tool's result (ignored once the task is terminal). */
  complete(task: TaskRecord, result: Record<string, unknown>): void {
    if (TERMINAL.has(task.status)) return;
    task.result = result;
    this.#finish(task, "completed");
  }

  /** Ends the task with a protocol error (ignored once the task is terminal). */
  fail(task: TaskRecord, error: TaskError): void {
    if (TERMINAL.has(task.status)) return;
    task.error = error;
    this.#finish(task, "failed");
  }

  /** Cancels the owner's task and aborts its work; a terminal task is left as it is. */
  cancel(owner: string, taskId: unknown): void {
    const { record } = this.#entry(owner, taskId);
    if (TERMINAL.has(record.status)) return;
    this.#finish(record, "cancelled");
  }

  #entry(owner: string, taskId: unknown): Entry {
    if (typeof taskId !== "string") throw new InvalidParamsError("taskId must be a string");
    this.#sweep();
    const entry = this.#entries.get(taskId);
    if (entry === undefined || entry.record.owner !== owner) {
      throw new InvalidParamsError(`Unknown task: ${taskId}`, { taskId });
    }
    return entry;
  }

  #finish(task: TaskRecord, status: TaskStatus): void {
    const entry = this.#entries.get(task.taskId);
    this.#setStatus(task, status);
    entry?.inputs.clear();
    entry?.abort.abort(new Error(`Task ${status}`));
    entry?.settle();
  }

  #setStatus(task: TaskRecord, status: TaskStatus): void {
    task.status = status;
    task.lastUpdatedAt = this.#now();
    this.#entries.get(task.taskId)?.onStatus?.(task);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [taskId, entry] of this.#entries) {
      if (entry.record.expiresAt > now) continue;
      this.#entries.delete(taskId);
      entry.abort.abort(new Error("Task expired"));
      entry.settle();
    }
  }
}

function busy(message: string): JSONRPCError {
  return new JSONRPCError(ImplementationErrorCode.ServerBusy, message);
}

/** 128 random bits as 32 hex digits (Web Crypto, so any runtime). */
function randomTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
