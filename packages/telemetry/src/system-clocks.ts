/**
 * The system's clocks as this module found them when loaded (before any test could fake them), so
 * that a request tracker can tell them from injected or faked ones: `Date.now` and
 * `performance.now` (bound once: a telemetry's monotonic clock when none is given).
 */
export const systemNow: () => number = Date.now;
export const systemMonotonicNow: () => number = performance.now.bind(performance);
