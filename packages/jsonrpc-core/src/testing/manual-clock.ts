import type { Clock } from "../connection/clock.js";

interface ManualTimer {
  due: number;
  readonly callback: () => void;
  readonly intervalMs: number | undefined;
}

/** A clock whose time moves only when a test calls `advance`; timers fire in due order. */
export interface ManualClock extends Clock {
  /** Moves time forward, running every timer that falls due (also ones scheduled meanwhile). */
  advance(ms: number): void;
  /** Timers scheduled and not yet run or cleared (an interval counts until cleared). */
  readonly pendingTimers: number;
}

/** Creates a {@link ManualClock} whose `now()` starts at `start`. */
export function createManualClock(start = 0): ManualClock {
  let now = start;
  const timers = new Set<ManualTimer>();
  const add = (callback: () => void, delayMs: number, intervalMs: number | undefined) => {
    const timer: ManualTimer = { due: now + Math.max(0, delayMs), callback, intervalMs };
    timers.add(timer);
    return timer;
  };
  return {
    now: () => now,
    setTimeout: (callback, delayMs) => add(callback, delayMs, undefined),
    clearTimeout: (handle) => void timers.delete(handle as ManualTimer),
    setInterval: (callback, intervalMs) => add(callback, intervalMs, intervalMs),
    clearInterval: (handle) => void timers.delete(handle as ManualTimer),
    get pendingTimers() {
      return timers.size;
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let next: ManualTimer | undefined;
        for (const timer of timers) {
          if (timer.due <= target && (next === undefined || timer.due < next.due)) next = timer;
        }
        if (next === undefined) break;
        now = next.due;
        if (next.intervalMs === undefined) timers.delete(next);
        else next.due += Math.max(1, next.intervalMs);
        next.callback();
      }
      now = target;
    },
  };
}
