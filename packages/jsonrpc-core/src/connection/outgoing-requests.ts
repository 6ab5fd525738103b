import {
  CancelledError,
  ResultValidationError,
  TimeoutError,
  UnexpectedResponseError,
} from "../errors/connection-errors.js";
import { createJSONRPCError } from "../errors/create-jsonrpc-error.js";
import type { JSONRPCId, JSONRPCParams, JSONRPCRequest, JSONRPCResponse } from "../messages.js";
import { RequestIdMap } from "../request-id-map.js";
import type { Clock, TimerClock } from "./clock.js";
import type { RequestOptions } from "./connection-types.js";
import type { SchemaLike } from "./descriptors.js";
import type { ProgressHooks } from "./hooks.js";

interface PendingRequest {
  readonly id: JSONRPCId;
  readonly method: string;
  readonly options: RequestOptions;
  readonly timeoutMs: number;
  readonly resultSchema: SchemaLike<unknown> | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  idleTimer?: unknown;
  totalTimer?: unknown;
  /** With a clock that tells time: when the idle and total limits fall due (`Infinity`: never). */
  idleDue: number;
  totalDue: number;
  removeAbortListener?: () => void;
}

/** What OutgoingRequests needs from its connection. */
export interface OutgoingRequestsOptions {
  clock: TimerClock;
  defaultTimeoutMs: number;
  progress: ProgressHooks | undefined;
  /** Sends the protocol's cancel notification for an abandoned request (if hooks exist). */
  sendCancel(id: JSONRPCId, reason: string): void;
  /** Reports a non-fatal problem. */
  report(error: Error): void;
}

/** Correlates outgoing requests with responses and owns their timers and abort listeners. */
export class OutgoingRequests {
  readonly #pending = new RequestIdMap<PendingRequest>();
  readonly #options: OutgoingRequestsOptions;
  /** One timer for every request's limits, when the clock tells time (else a timer per limit). */
  readonly #sweeper: SweepTimer | undefined;
  #nextId = 0;

  constructor(options: OutgoingRequestsOptions) {
    this.#options = options;
    const clock = options.clock;
    this.#sweeper = tellsTime(clock) ? new SweepTimer(clock, (now) => this.#sweep(now)) : undefined;
  }

  /**
   * Registers a request and returns the message to send and the promise of its result. Ids count up
   * from 0: a peer that mistakes id 0 for "no id" fails on the very first request.
   */
  begin(
    method: string,
    params: JSONRPCParams | undefined,
    options: RequestOptions,
    resultSchema: SchemaLike<unknown> | undefined,
  ): { message: JSONRPCRequest; result: Promise<unknown> } {
    const id = this.#nextId++;
    options.onRequestId?.(id);
    const progress = this.#options.progress;
    const sentParams =
      options.onProgress !== undefined && progress !== undefined
        ? progress.attachToken(params, id)
        : params;
    const message: JSONRPCRequest =
      sentParams === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params: sentParams };
    const timeoutMs = options.timeoutMs ?? this.#options.defaultTimeoutMs;
    const result = new Promise<unknown>((resolve, reject) => {
      const pending: PendingRequest = {
        id,
        method,
        options,
        timeoutMs,
        resultSchema,
        resolve,
        reject,
        idleDue: Number.POSITIVE_INFINITY,
        totalDue: Number.POSITIVE_INFINITY,
      };
      this.#pending.set(id, pending);
      this.#armLimits(pending);
      const signal = options.signal;
      if (signal !== undefined) {
        const onAbort = () => this.#abort(pending, signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        pending.removeAbortListener = () => signal.removeEventListener("abort", onAbort);
      } else if (options.cancellation !== undefined) {
        pending.removeAbortListener = options.cancellation.onAbort((reason) =>
          this.#abort(pending, reason),
        );
      }
    });
    return { message, result };
  }

  /** Rejects a request whose message could not be sent; no cancel notification goes out. */
  fail(id: JSONRPCId, error: Error): void {
    const pending = this.#pending.get(id);
    if (pending !== undefined && this.#settle(pending)) pending.reject(error);
  }

  /** Settles the matching request, or reports the response as unexpected. */
  receive(response: JSONRPCResponse): void {
    const pending = response.id === null ? undefined : this.#pending.get(response.id);
    if (pending === undefined) {
      const why =
        response.id === null
          ? "The peer reported an error about a message it could not read"
          : `Ignored a response with id ${JSON.stringify(response.id)}: no pending request (late, duplicate or unknown)`;
      this.#options.report(new UnexpectedResponseError(why, response));
      return;
    }
    this.#settle(pending);
    if ("error" in response) {
      pending.reject(createJSONRPCError(response.error));
      return;
    }
    if (pending.resultSchema === undefined) {
      pending.resolve(response.result);
      return;
    }
    try {
      pending.resolve(pending.resultSchema.parse(response.result));
    } catch (error) {
      const message = `The result of "${pending.method}" did not match its descriptor`;
      pending.reject(new ResultValidationError(message, { cause: error }));
    }
  }

  /** Delivers progress for the request whose id is `token`; true when one matched. */
  progress(token: JSONRPCId, params: unknown): boolean {
    const pending = this.#pending.get(token);
    const onProgress = pending?.options.onProgress;
    if (pending === undefined || onProgress === undefined) return false;
    if (pending.options.resetTimeoutOnProgress === true) {
      if (this.#sweeper !== undefined) {
        // Only later: the sweep that finds it not yet due re-arms for it.
        if (isTimerLimit(pending.timeoutMs))
          pending.idleDue = this.#sweeper.now() + pending.timeoutMs;
      } else {
        this.#options.clock.clearTimeout(pending.idleTimer);
        this.#armIdleTimer(pending);
      }
    }
    try {
      onProgress(params);
    } catch (error) {
      this.#options.report(error instanceof Error ? error : new Error(String(error)));
    }
    return true;
  }

  /**
   * Rejects every pending request with `error` and clears the shared timer (used when the
   * connection closes).
   */
  rejectAll(error: Error): void {
    for (const pending of this.#pending.values()) {
      this.#settle(pending);
      pending.reject(error);
    }
    this.#sweeper?.stop();
  }

  #abort(pending: PendingRequest, reason: unknown): void {
    if (!this.#settle(pending)) return;
    this.#options.sendCancel(pending.id, describeReason(reason));
    const message = `Request "${pending.method}" was cancelled`;
    pending.reject(new CancelledError(message, { cause: reason }));
  }

  /** Starts the request's idle and total limits: deadlines for the sweep, or timers. */
  #armLimits(pending: PendingRequest): void {
    const maxTotal = pending.options.maxTotalTimeoutMs;
    const sweeper = this.#sweeper;
    if (sweeper !== undefined) {
      const now = sweeper.now();
      if (isTimerLimit(pending.timeoutMs)) pending.idleDue = now + pending.timeoutMs;
      if (maxTotal !== undefined && isTimerLimit(maxTotal)) pending.totalDue = now + maxTotal;
      sweeper.watch(Math.min(pending.idleDue, pending.totalDue));
      return;
    }
    this.#armIdleTimer(pending);
    if (maxTotal !== undefined && isTimerLimit(maxTotal)) {
      pending.totalTimer = this.#options.clock.setTimeout(
        () => this.#timeOut(pending, maxTotal, "maximum total time"),
        maxTotal,
      );
    }
  }

  /** Times out what fell due by `now` (in the order sent); returns the next deadline. */
  #sweep(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    const due: PendingRequest[] = [];
    for (const pending of this.#pending.values()) {
      const at = Math.min(pending.idleDue, pending.totalDue);
      if (at <= now) due.push(pending);
      else if (at < next) next = at;
    }
    for (const pending of due) {
      if (pending.idleDue <= pending.totalDue) this.#timeOut(pending, pending.timeoutMs, "timeout");
      else {
        const maxTotal = pending.options.maxTotalTimeoutMs as number;
        this.#timeOut(pending, maxTotal, "maximum total time");
      }
    }
    return next;
  }

  #armIdleTimer(pending: PendingRequest): void {
    if (!isTimerLimit(pending.timeoutMs)) return;
    pending.idleTimer = this.#options.clock.setTimeout(
      () => this.#timeOut(pending, pending.timeoutMs, "timeout"),
      pending.timeoutMs,
    );
  }

  #timeOut(pending: PendingRequest, limitMs: number, limitName: string): void {
    if (!this.#settle(pending)) return;
    const message = `Request "${pending.method}" timed out after ${limitMs} ms (${limitName})`;
    this.#options.sendCancel(pending.id, message);
    pending.reject(new TimeoutError(message, limitMs));
  }

  /** Removes the request and its timers; false when it was already settled. */
  #settle(pending: PendingRequest): boolean {
    if (!this.#pending.delete(pending.id, pending)) return false;
    const clock = this.#options.clock;
    if (pending.idleTimer !== undefined) clock.clearTimeout(pending.idleTimer);
    if (pending.totalTimer !== undefined) clock.clearTimeout(pending.totalTimer);
    // The shared timer stays armed (no clear now, no new timer for the next request), unref'd.
    if (this.#pending.size === 0) this.#sweeper?.idle();
    pending.removeAbortListener?.();
    const onSettled = pending.options.onSettled;
    if (onSettled !== undefined) {
      try {
        onSettled();
      } catch (error) {
        // A failing hook must not keep the request from settling, nor break the frame's delivery.
        this.#options.report(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return true;
  }
}

/**
 * Longest delay timers honour: beyond it (about 24.8 days) Node and browsers fire after 1 ms. A limit
 * of 0, a negative, `Infinity` or anything beyond this means "no limit".
 */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

function isTimerLimit(ms: number): boolean {
  return ms > 0 && ms <= MAX_TIMER_DELAY_MS;
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === "string" ? reason : "Request cancelled";
}

/**
 * One timer for many deadlines: it fires at the earliest deadline it was told of, and `sweep`
 * (given the time) handles what fell due and returns the next deadline (`Infinity`: none).
 * Deadlines that stop mattering (their request settled) are not cleared one by one, nor is the timer
 * when the last request settles: it stays armed, unref'd while nothing is pending (where the
 * clock's handles have `unref`, as Node's do) so that it never holds a process open, and ref'd
 * again by the next deadline. A fire that finds nothing due just ends, or re-arms for the next
 * deadline. A lone request after another thus costs no timer call, where clearing the timer when
 * idle cost a clear and a set per request. `stop` (the connection closed) clears it.
 */
class SweepTimer {
  readonly #clock: TimerClock & Pick<Clock, "now">;
  readonly #sweep: (now: number) => number;
  #handle: unknown;
  #due = Number.POSITIVE_INFINITY;
  /** True once `idle` unref'd the armed timer (`watch` refs it again; a new timer is as made). */
  #unrefd = false;

  constructor(clock: TimerClock & Pick<Clock, "now">, sweep: (now: number) => number) {
    this.#clock = clock;
    this.#sweep = sweep;
  }

  /** The clock's time. */
  now(): number {
    return this.#clock.now();
  }

  /** Makes sure the timer fires no later than `due` (`Infinity`: no deadline), and holds it. */
  watch(due: number): void {
    if (due >= this.#due) {
      if (this.#unrefd && due !== Number.POSITIVE_INFINITY) {
        this.#unrefd = false;
        (this.#handle as TimerHandle).ref?.();
      }
      return;
    }
    // Read here, not through `stop()` and `now()`.
    const clock = this.#clock;
    if (this.#handle !== undefined) clock.clearTimeout(this.#handle);
    this.#due = due;
    this.#unrefd = false;
    this.#handle = clock.setTimeout(() => this.#fire(), Math.max(0, due - clock.now()));
  }

  /**
   * Nothing is pending: the armed timer stays, but no longer holds the process open. A timer its
   * clock made unref'd already (`hasRef()` false, as `backgroundClock`'s) is left as it is, so that
   * `watch` never refs it.
   */
  idle(): void {
    const handle = this.#handle as TimerHandle | undefined;
    if (handle === undefined || this.#unrefd || handle.hasRef?.() === false) return;
    this.#unrefd = true;
    handle.unref?.();
  }

  /** Clears the timer (the connection closed). */
  stop(): void {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
    this.#due = Number.POSITIVE_INFINITY;
  }

  #fire(): void {
    this.#handle = undefined;
    this.#due = Number.POSITIVE_INFINITY;
    const next = this.#sweep(this.now());
    if (next !== Number.POSITIVE_INFINITY) this.watch(next);
  }
}

/** What a timer handle may offer (Node's and Bun's do; a browser's number does not). */
interface TimerHandle {
  ref?(): void;
  unref?(): void;
  hasRef?(): boolean;
}

/** True when a clock also tells the time (then one SweepTimer can replace timers per request). */
function tellsTime(clock: TimerClock): clock is TimerClock & Pick<Clock, "now"> {
  return typeof (clock as Partial<Clock>).now === "function";
}
