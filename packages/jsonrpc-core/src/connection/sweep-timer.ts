import type { Clock, TimerClock } from "./clock.js";

/**
 * One timer for many deadlines: it fires at the earliest deadline it was told of, and `sweep`
 * (given the time) handles what fell due and returns the next deadline (`Infinity`: none).
 * Deadlines that stop mattering (their request settled) are not cleared one by one; a fire that
 * finds nothing due just re-arms. Replaces a timer per request and its clear.
 */
export class SweepTimer {
  readonly #clock: TimerClock & Pick<Clock, "now">;
  readonly #sweep: (now: number) => number;
  #handle: unknown;
  #due = Number.POSITIVE_INFINITY;

  constructor(clock: TimerClock & Pick<Clock, "now">, sweep: (now: number) => number) {
    this.#clock = clock;
    this.#sweep = sweep;
  }

  /** The clock's time. */
  now(): number {
    return this.#clock.now();
  }

  /** Makes sure the timer fires no later than `due`. */
  watch(due: number): void {
    if (due >= this.#due) return;
    // Read here, not through `stop()` and `now()`: a lone request arms the timer on each call.
    const clock = this.#clock;
    if (this.#handle !== undefined) clock.clearTimeout(this.#handle);
    this.#due = due;
    this.#handle = clock.setTimeout(() => this.#fire(), Math.max(0, due - clock.now()));
  }

  /** Clears the timer (nothing is left to watch). */
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

/** True when a clock also tells the time (then one SweepTimer can replace timers per request). */
export function tellsTime(clock: TimerClock): clock is TimerClock & Pick<Clock, "now"> {
  return typeof (clock as Partial<Clock>).now === "function";
}
