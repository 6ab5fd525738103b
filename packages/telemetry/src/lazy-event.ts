import type { TelemetryEvent } from "./event.js";

/** Builds a {@link LazyEvent} from the two things kept for it and the time it was recorded at. */
export type LazyEventBuilder = (first: unknown, second: unknown, at: number) => TelemetryEvent;

/** What marks a {@link LazyEvent} (a built event never has it). */
export const lazyEventMark: unique symbol = Symbol("patchbay.lazyEvent");

/**
 * An event recorded unbuilt: what to build it from is kept beside the builder (no closure and no
 * input object per event), and it is built (bounded and redacted) when first read, by a query of
 * the store or by a sink's queue, then kept as built. The store and every sink share one, so it is
 * built once. A plain object, made by the recorder as a literal: recording calls nothing for it.
 */
export interface LazyEvent {
  readonly [lazyEventMark]: true;
  /** The event's type as recorded (for sinks' `acceptsType`). */
  readonly eventType: string;
  build: LazyEventBuilder | undefined;
  first: unknown;
  second: unknown;
  readonly at: number;
  event: TelemetryEvent | undefined;
}

/** True for a {@link LazyEvent}. */
export function isLazyEvent(event: TelemetryEvent | LazyEvent): event is LazyEvent {
  return lazyEventMark in event;
}

/** The event itself, or a lazy one built now (once: it keeps what it built). */
export function builtEvent(event: TelemetryEvent | LazyEvent): TelemetryEvent {
  if (!(lazyEventMark in event)) return event;
  if (event.event === undefined) {
    event.event = (event.build as LazyEventBuilder)(event.first, event.second, event.at);
    event.build = undefined;
    event.first = undefined;
    event.second = undefined;
  }
  return event.event;
}
