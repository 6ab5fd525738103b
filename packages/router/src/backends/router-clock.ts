import { type Clock, systemClock } from "@patchbay/jsonrpc-core";

/** The part of `@patchbay/jsonrpc-core`'s `Clock` the router uses: time, and one-shot timers. */
export type RouterClock = Pick<Clock, "now" | "setTimeout" | "clearTimeout">;

/** The global clock and timers (jsonrpc-core's `systemClock`). */
export const systemRouterClock: RouterClock = systemClock;
