import type { Clock } from "@patchbay/jsonrpc-core";

/** Time and timers: the one `Clock` of `@patchbay/jsonrpc-core` (re-exported for this package's users). */
export type { Clock } from "@patchbay/jsonrpc-core";

/** An opaque timer handle returned by a {@link Clock}. */
export type TimerHandle = unknown;

/** The real clock; its timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, intervalMs) => setInterval(callback, intervalMs).unref(),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};
