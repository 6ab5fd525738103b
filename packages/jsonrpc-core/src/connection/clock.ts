/** The timer functions a Connection uses; pass a fake one in tests instead of patching globals. */
export interface Clock {
  /** Calls `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer made by this clock's `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

/** The global timers (available in every JavaScript runtime). */
export const systemClock: Clock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
