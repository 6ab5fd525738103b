import type { Clock } from "@patchbay/jsonrpc-core";

/** Time and timers: the one `Clock` of `@patchbay/jsonrpc-core` (re-exported for this package's users). */
export type { Clock } from "@patchbay/jsonrpc-core";

/** An opaque timer handle returned by a {@link Clock}. */
export type TimerHandle = unknown;

/** The real clock; on Node its timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => unref(setTimeout(callback, delayMs)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, intervalMs) => unref(setInterval(callback, intervalMs)),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/** Node's timers are objects with `unref`; browsers, workers and Deno return a number. */
function unref<Handle>(handle: Handle): Handle {
  (handle as { unref?: () => void }).unref?.();
  return handle;
}
