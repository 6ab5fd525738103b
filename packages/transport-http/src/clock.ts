/** An opaque timer handle returned by a {@link Clock}. */
export type TimerHandle = unknown;

/** Time and timers, passed in so that tests can drive TTLs and keep-alives without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs`. */
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  /** Cancels a timer made by `setTimeout`. */
  clearTimeout(handle: TimerHandle): void;
  /** Runs `callback` every `intervalMs`. */
  setInterval(callback: () => void, intervalMs: number): TimerHandle;
  /** Cancels a timer made by `setInterval`. */
  clearInterval(handle: TimerHandle): void;
}

/** The real clock; its timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, intervalMs) => setInterval(callback, intervalMs).unref(),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};
