import type { Clock } from "@patchbay/transport-http";

/** A clock that moves only when told: `advance(ms)` runs the timers that fall due, in order. */
export interface ManualClock extends Clock {
  advance(milliseconds: number): void;
}

export function createManualClock(start = 1_000_000): ManualClock {
  let time = start;
  let nextHandle = 0;
  const timers = new Map<number, { at: number; run: () => void; every?: number }>();
  return {
    now: () => time,
    setTimeout(run, delay) {
      const handle = nextHandle++;
      timers.set(handle, { at: time + delay, run });
      return handle;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    setInterval(run, every) {
      const handle = nextHandle++;
      timers.set(handle, { at: time + every, run, every });
      return handle;
    },
    clearInterval: (handle) => void timers.delete(handle as number),
    advance(milliseconds) {
      const end = time + milliseconds;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, timer]) => timer.at <= end)
          .sort(([, a], [, b]) => a.at - b.at)[0];
        if (due === undefined) break;
        const [handle, timer] = due;
        time = timer.at;
        if (timer.every === undefined) timers.delete(handle);
        else timer.at += timer.every;
        timer.run();
      }
      time = end;
    },
  };
}
