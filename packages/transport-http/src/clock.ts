/** Time and timers: the one `Clock` of `@patchbay/jsonrpc-core` (re-exported for this package's users). */
export type { Clock } from "@patchbay/jsonrpc-core";

/**
 * The real clock; its timers do not keep the process alive: jsonrpc-core's `backgroundClock`, under
 * the name this package has always exported it by.
 */
export { backgroundClock as systemClock } from "@patchbay/jsonrpc-core";

/** An opaque timer handle returned by a {@link Clock}. */
export type TimerHandle = unknown;
