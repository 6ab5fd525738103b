/**
 * Time and timers, passed in (docs/architecture.md, "Conventions") so that tests drive time with a
 * manual clock (`@patchbay/jsonrpc-core/testing`) instead of patching globals or sleeping. The one
 * clock interface of every Patchbay package.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer made by this clock's `setTimeout`. */
  clearTimeout(handle: unknown): void;
  /** Calls `callback` every `ms` milliseconds; returns a handle for `clearInterval`. */
  setInterval(callback: () => void, ms: number): unknown;
  /** Cancels a timer made by this clock's `setInterval`. */
  clearInterval(handle: unknown): void;
}

/** The part of a clock that timeouts need (what a Connection uses). */
export type TimerClock = Pick<Clock, "setTimeout" | "clearTimeout">;

/** The global time and timers (available in every JavaScript runtime). */
export const systemClock: Clock = {
  // `Date.now` itself (it reads no `this`): no function of ours runs when time is read.
  now: Date.now,
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/**
 * Lets a timer not keep the process alive where timers can say so (Node, Bun); Deno, browsers and
 * Workers return plain numbers, kept as they are.
 */
function unref<T>(handle: T): T {
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

/**
 * The global time and timers, whose timers do not keep the process alive (where the runtime can
 * say so): for housekeeping such as idle sweeps and keep-alives, which must not hold a process
 * open once its real work is done.
 */
export const backgroundClock: Clock = {
  now: Date.now,
  setTimeout: (callback, ms) => unref(setTimeout(callback, ms)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => unref(setInterval(callback, ms)),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};
