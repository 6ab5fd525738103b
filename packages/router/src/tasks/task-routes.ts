import { ImplementationErrorCode, JSONRPCError } from "@patchbay/jsonrpc-core";
import type { RouterClock } from "../backends/router-clock.js";
import { INVALID_PARAMS } from "../errors/map-error.js";
import { TaskInputs } from "./task-inputs.js";

/** Limits of the tasks the router routes (extension `io.modelcontextprotocol/tasks`). */
export interface TaskRouteLimits {
  /** Most live tasks routed at once, every caller together. */
  readonly maxTasks: number;
  /** Most live tasks of one caller. */
  readonly maxTasksPerCaller: number;
  /** Longest a task is routed, in ms, whatever TTL its backend gave (also used for none). */
  readonly maxTtlMs: number;
}

/** Where a task the router handed out lives. */
export interface TaskRoute {
  /** The id the client knows (made by the router). */
  readonly taskId: string;
  readonly caller: string;
  readonly backend: string;
  /** The id the backend made. */
  readonly backendTaskId: string;
  readonly expiresAt: number;
  /**
   * Set for a legacy session's task on a modern backend (the router bridges the eras): the status
   * the session was last told.
   */
  readonly bridged?: { status: string; asking?: Set<string> };
  /**
   * The legacy session whose call created a modern caller's task (the session behind its modern
   * front): what the task's backend asks about the task goes there.
   */
  readonly session?: string;
  /**
   * The client capabilities a modern caller declared in the call that created its task: what the
   * task's backend may ask it (a question needing another is refused).
   */
  readonly capabilities?: Readonly<Record<string, unknown>>;
}

/** What a route may carry beside its ids (see `TaskRoute`). */
export type TaskRouteExtras = Pick<TaskRoute, "bridged" | "session" | "capabilities">;

/**
 * The tasks the router handed out (the modern front's extension tasks and legacy sessions'
 * 2025-11-25 tasks, one table), in memory: each under an id the router made (128
 * random bits), mapped to the backend that created it and that backend's own id, so that two
 * backends' ids never meet and no backend can name another's task. A task is visible only to the
 * caller whose call created it: another caller's id is "unknown" (-32602) like an id never issued.
 * Routes end at the task's TTL (at most `maxTtlMs`) and are dropped whenever the table is used.
 */
export class TaskRoutes {
  readonly #limits: TaskRouteLimits;
  readonly #now: () => number;
  readonly #routes = new Map<string, TaskRoute>();
  /** What 2025-11-25 backends ask during modern callers' tasks, by the router's task id. */
  readonly inputs: TaskInputs;
  readonly #timers: Pick<RouterClock, "setTimeout" | "clearTimeout">;
  /** Who waits for a backend's task to be routed (see `routed`). */
  #waiting: RouteWaiter[] = [];
  /** Statuses of tasks not routed yet, oldest first (see `holdEarlyStatus`). */
  #early: EarlyStatus[] = [];

  /** `clock`: a whole clock, or only its `now` (no timers: questions wait to the backend's timeout). */
  constructor(limits: TaskRouteLimits, clock: RouterClock | (() => number)) {
    this.#limits = limits;
    this.#now = typeof clock === "function" ? clock : () => clock.now();
    this.#timers =
      typeof clock === "function" ? { setTimeout: () => undefined, clearTimeout: () => {} } : clock;
    this.inputs = new TaskInputs({ now: this.#now, ...pick(this.#timers) });
  }

  /** Live routes (after dropping the expired ones). */
  get size(): number {
    this.#sweep();
    return this.#routes.size;
  }

  /** The TTL a route gets for a backend's `ttlMs` (null or absent: `maxTtlMs`). */
  ttlFor(backendTtlMs: unknown): number {
    const { maxTtlMs } = this.#limits;
    return typeof backendTtlMs === "number" && backendTtlMs > 0
      ? Math.min(Math.floor(backendTtlMs), maxTtlMs)
      : maxTtlMs;
  }

  /** Routes a new task of `caller`; -32010 (retry later) past the total or per-caller limit. */
  add(
    caller: string,
    backend: string,
    backendTaskId: string,
    ttlMs: number,
    extras: TaskRouteExtras = {},
  ): TaskRoute {
    this.#sweep();
    const { maxTasks, maxTasksPerCaller } = this.#limits;
    if (this.#routes.size >= maxTasks) {
      throw busy(`The gateway routes its maximum of ${maxTasks} live tasks; retry later`);
    }
    let owned = 0;
    for (const route of this.#routes.values()) if (route.caller === caller) owned += 1;
    if (owned >= maxTasksPerCaller) {
      throw busy(
        `This caller has its maximum of ${maxTasksPerCaller} live tasks at the gateway; retry later`,
      );
    }
    const route: TaskRoute = {
      taskId: randomTaskId(),
      caller,
      backend,
      backendTaskId,
      expiresAt: this.#now() + ttlMs,
      ...extras,
    };
    this.#routes.set(route.taskId, route);
    const waiters = this.#waiting.filter(
      (waiter) => waiter.backend === backend && waiter.backendTaskId === backendTaskId,
    );
    for (const waiter of waiters) waiter.done(route);
    return route;
  }

  /**
   * The route of a backend's task once it is made: a backend may ask about a task before the router
   * has read the `CreateTaskResult` naming it. Undefined after `withinMs` without one (or at once
   * without timers).
   */
  routed(backend: string, backendTaskId: string, withinMs: number): Promise<TaskRoute | undefined> {
    return new Promise((resolve) => {
      const waiter: RouteWaiter = {
        backend,
        backendTaskId,
        done: (route) => {
          this.#timers.clearTimeout(timer);
          this.#waiting = this.#waiting.filter((other) => other !== waiter);
          resolve(route);
        },
      };
      const timer = this.#timers.setTimeout(() => waiter.done(undefined), withinMs);
      if (timer === undefined) {
        resolve(undefined);
        return;
      }
      this.#waiting.push(waiter);
    });
  }

  /** The caller's route of `taskId`, or -32602 when it is unknown, expired or another's. */
  get(caller: string, taskId: unknown): TaskRoute {
    if (typeof taskId !== "string") {
      throw new JSONRPCError(INVALID_PARAMS, "taskId must be a string");
    }
    this.#sweep();
    const route = this.#routes.get(taskId);
    if (route === undefined || route.caller !== caller) throw unknownTask(taskId);
    return route;
  }

  /** The caller's live routes, oldest first. */
  ofCaller(caller: string): TaskRoute[] {
    this.#sweep();
    return [...this.#routes.values()].filter((route) => route.caller === caller);
  }

  /**
   * The live route of a backend's task id (for its status notifications), among `caller`'s when
   * given (a per-session backend's ids are its session's own); undefined when none.
   */
  findByBackend(backend: string, backendTaskId: string, caller?: string): TaskRoute | undefined {
    const now = this.#now();
    for (const route of this.#routes.values()) {
      if (route.backend !== backend || route.backendTaskId !== backendTaskId) continue;
      if (route.expiresAt <= now || (caller !== undefined && route.caller !== caller)) continue;
      return route;
    }
    return undefined;
  }

  /**
   * Keeps a backend's status of a task not routed yet: a backend may send a task's first status
   * before the router has read the `CreateTaskResult` naming it. Kept for `EARLY_STATUS_MS`, the
   * last `MAX_EARLY_STATUSES` of them; `owner`: the session of a per-session backend.
   */
  holdEarlyStatus(
    backend: string,
    backendTaskId: string,
    owner: string | undefined,
    params: Record<string, unknown>,
  ): void {
    const now = this.#now();
    this.#early = this.#early.filter((status) => status.at > now - EARLY_STATUS_MS);
    if (this.#early.length >= MAX_EARLY_STATUSES) this.#early.shift();
    this.#early.push({ backend, backendTaskId, owner, params, at: now });
  }

  /** Takes the held statuses of a backend's task, oldest first, for a new route's `owner`. */
  takeEarlyStatuses(
    backend: string,
    backendTaskId: string,
    owner: string,
  ): Record<string, unknown>[] {
    if (this.#early.length === 0) return [];
    const now = this.#now();
    const taken = this.#early.filter(
      (status) =>
        status.backend === backend &&
        status.backendTaskId === backendTaskId &&
        (status.owner === undefined || status.owner === owner) &&
        status.at > now - EARLY_STATUS_MS,
    );
    if (taken.length > 0) this.#early = this.#early.filter((status) => !taken.includes(status));
    return taken.map((status) => status.params);
  }

  /** The live route of a backend's task id that `accept` takes; undefined when none. */
  findRelated(
    backend: string,
    backendTaskId: string,
    accept: (route: TaskRoute) => boolean,
  ): TaskRoute | undefined {
    const now = this.#now();
    for (const route of this.#routes.values()) {
      if (route.backend !== backend || route.backendTaskId !== backendTaskId) continue;
      if (route.expiresAt > now && accept(route)) return route;
    }
    return undefined;
  }

  /** Forgets every route of `caller` (gone for good) and returns them. */
  removeCaller(caller: string): TaskRoute[] {
    const removed = [...this.#routes.values()].filter((route) => route.caller === caller);
    for (const route of removed) this.delete(route.taskId);
    return removed;
  }

  /** Forgets a route (its backend no longer knows the task); what it waits for is rejected. */
  delete(taskId: string): void {
    this.#routes.delete(taskId);
    this.inputs.reject(taskId, new Error(`Task ${taskId} is no longer routed by the gateway`));
  }

  #sweep(): void {
    const now = this.#now();
    for (const [taskId, route] of this.#routes) {
      if (route.expiresAt <= now) this.delete(taskId);
    }
  }
}

/** How long a status of a task not routed yet is kept for the route to come. */
const EARLY_STATUS_MS = 10_000;
/** Most statuses of tasks not routed yet kept at once. */
const MAX_EARLY_STATUSES = 100;

interface RouteWaiter {
  readonly backend: string;
  readonly backendTaskId: string;
  done(route: TaskRoute | undefined): void;
}

function pick(timers: Pick<RouterClock, "setTimeout" | "clearTimeout">) {
  return {
    setTimeout: (callback: () => void, ms: number) => timers.setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => timers.clearTimeout(handle),
  };
}

interface EarlyStatus {
  readonly backend: string;
  readonly backendTaskId: string;
  readonly owner: string | undefined;
  readonly params: Record<string, unknown>;
  readonly at: number;
}

/** The extension's answer for a task id that names no task of the caller (-32602). */
export function unknownTask(taskId: string): JSONRPCError {
  return new JSONRPCError(INVALID_PARAMS, `Unknown task: ${taskId}`, { taskId });
}

function busy(message: string): JSONRPCError {
  return new JSONRPCError(ImplementationErrorCode.ServerBusy, message);
}

/** 128 random bits as 32 hex digits (Web Crypto, so any runtime). */
function randomTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
