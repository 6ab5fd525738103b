import type { Clock } from "@patchbay/jsonrpc-core";

/** Time and timers: the one `Clock` of `@patchbay/jsonrpc-core` (re-exported for this package's users). */
export type { Clock } from "@patchbay/jsonrpc-core";

/** An opaque timer handle returned by a {@link Clock}. */
export type TimerHandle = unknown;

/**
 * Lets a timer not keep the process alive where timers can say so (Node, Bun); Deno and Workers
 * return plain numbers.
 */
function unref<T>(handle: T): T {
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

/** The real clock; its timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => unref(setTimeout(callback, delayMs)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, intervalMs) => unref(setInterval(callback, intervalMs)),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};
