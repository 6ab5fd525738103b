import type { TelemetryEvent } from "./event.js";
import { compileEventQuery, type EventQuery } from "./event-query.js";
import { createRingBuffer } from "./ring-buffer.js";

/** The in-memory event store: a ring buffer of the newest events, queried by `get_events`. */
export interface MemoryEventStore {
  /** Most events kept. */
  readonly capacity: number;
  /** Events kept now. */
  readonly size: number;
  /** Events evicted because the buffer was full. */
  readonly evicted: number;
  /** Stores an event (synchronously), evicting the oldest when full. */
  add(event: TelemetryEvent): void;
  /** Stores an event that `build` makes when it is first queried (then kept as built). */
  addDeferred(build: () => TelemetryEvent): void;
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
  const buffer = createRingBuffer<TelemetryEvent | DeferredEvent>(options.capacity ?? 1000);
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
    addDeferred(build) {
      buffer.push(new DeferredEvent(build));
    },
    query(query = {}) {
      const compiled = compileEventQuery(query, now());
      const result: TelemetryEvent[] = [];
      buffer.visitNewestFirst((stored) => {
        const event = stored instanceof DeferredEvent ? stored.event : stored;
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

/** An event stored unbuilt: built once, on the first query that reaches it. */
class DeferredEvent {
  #build: (() => TelemetryEvent) | undefined;
  #event: TelemetryEvent | undefined;

  constructor(build: () => TelemetryEvent) {
    this.#build = build;
  }

  get event(): TelemetryEvent {
    if (this.#event === undefined) {
      this.#event = (this.#build as () => TelemetryEvent)();
      this.#build = undefined;
    }
    return this.#event;
  }
}
