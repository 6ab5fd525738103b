import type { Clock } from "../src/connection/clock.js";

/** A Clock whose time moves only when a test calls `advance`. */
export interface FakeClock extends Clock {
  /** Moves time forward, running every timer that falls due (also ones scheduled meanwhile). */
  advance(ms: number): void;
  /** Number of timers scheduled and not yet run or cleared. */
  readonly pendingTimers: number;
}

export function createFakeClock(): FakeClock {
  let now = 0;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    setTimeout(callback, ms) {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, callback });
      return handle;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of timers) {
          if (entry[1].at <= target && (due === undefined || entry[1].at < due[1].at)) due = entry;
        }
        if (due === undefined) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = target;
    },
    get pendingTimers() {
      return timers.size;
    },
  };
}
