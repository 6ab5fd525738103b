import type { TelemetryEvent } from "./event.js";
import { compileEventQuery, type EventQuery } from "./event-query.js";
import { builtEvent, type LazyEvent, lazyEventMark } from "./lazy-event.js";
import { createRingBuffer } from "./ring-buffer.js";

/** The in-memory event store: a ring buffer of the newest events, queried by `get_events`. */
export interface MemoryEventStore {
  /** Most events kept. */
  readonly capacity: number;
  /** Events kept now. */
  readonly size: number;
  /** Events evicted because the buffer was full. */
  readonly evicted: number;
  /**
   * Stores an event (synchronously), evicting the oldest when full; a {@link LazyEvent} is built
   * when a query first reaches it.
   */
  add(event: TelemetryEvent | LazyEvent): void;
  /** Stores an event that `build` makes when it is first queried (then kept as built). */
  addDeferred(build: () => TelemetryEvent): void;
  /**
   * The same, with what to build from kept beside the builder (no closure per event: a stored
   * event holds fewer objects for the garbage collector to move). `build(input, at)` runs once.
   */
  addDeferred<T>(build: (input: T, at: number) => TelemetryEvent, input: T, at: number): void;
  /**
   * Events matching the query, most recent first. Validates the query (it may come from a client)
   * and throws a `TelemetryError` with code `INVALID_QUERY` naming the bad field.
   */
  query(query?: EventQuery | Readonly<Record<string, unknown>>): TelemetryEvent[];
  /** Removes every event. */
  clear(): void;
}

/** Options of {@link createMemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Events kept (default 1000). */
  readonly capacity?: number;
  /** Clock in epoch milliseconds, for relative `since` values (default `Date.now`). */
  readonly now?: () => number;
}

/** Creates a {@link MemoryEventStore}. */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): MemoryEventStore {
  const buffer = createRingBuffer<TelemetryEvent | LazyEvent>(options.capacity ?? 1000);
  const now = options.now ?? Date.now;
  return {
    capacity: buffer.capacity,
    get size() {
      return buffer.size;
    },
    get evicted() {
      return buffer.overwritten;
    },
    add(event) {
      buffer.push(event);
    },
    addDeferred(build: (input: unknown, at: number) => TelemetryEvent, input?: unknown, at = 0) {
      const event: LazyEvent = {
        [lazyEventMark]: true,
        eventType: "",
        build: buildFirst,
        first: build,
        second: input,
        at,
        event: undefined,
      };
      buffer.push(event);
    },
    query(query = {}) {
      const compiled = compileEventQuery(query, now());
      const result: TelemetryEvent[] = [];
      buffer.visitNewestFirst((stored) => {
        const event = builtEvent(stored);
        if (compiled.matches(event)) result.push(event);
        return result.length < compiled.limit;
      });
      return result;
    },
    clear() {
      buffer.clear();
    },
  };
}

const buildFirst = (build: unknown, input: unknown, at: number): TelemetryEvent =>
  (build as (input: unknown, at: number) => TelemetryEvent)(input, at);
