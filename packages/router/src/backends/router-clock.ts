/** Time and timers for the router; injectable so tests use fake timers or a manual clock. */
export interface RouterClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` after `delayMs`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, delayMs: number): unknown;
  /** Cancels a timer made by `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

/** The global clock and timers. */
export const systemRouterClock: RouterClock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};
