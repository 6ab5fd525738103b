import type { TelemetryEvent } from "./event.js";
import { compileEventQuery, type EventQuery } from "./event-query.js";
import { builtEvent, type LazyEvent, type LazyEventBuilder, lazyEventMark } from "./lazy-event.js";

/**
 * A {@link LazyEvent} as the recorders make it: one class (one shape, made by a constructor), its
 * mark on the prototype (`lazyEventMark in event` finds it there) rather than a symbol-keyed
 * property defined on every event. Here, beside the store every one of them goes to: recording
 * enters no other file.
 */
export class UnbuiltEvent implements LazyEvent {
  // Declared, and assigned in the constructor: no field initializer function runs per event.
  declare readonly [lazyEventMark]: true;
  declare readonly eventType: string;
  declare build: LazyEventBuilder | undefined;
  declare first: unknown;
  declare second: unknown;
  declare readonly at: number;
  declare event: TelemetryEvent | undefined;

  constructor(
    eventType: string,
    build: LazyEventBuilder,
    first: unknown,
    second: unknown,
    at: number,
  ) {
    this.eventType = eventType;
    this.build = build;
    this.first = first;
    this.second = second;
    this.at = at;
    this.event = undefined;
  }
}
Object.defineProperty(UnbuiltEvent.prototype, lazyEventMark, { value: true });

/** A fixed-capacity buffer that keeps the newest items, overwriting the oldest when full. */
export interface RingBuffer<T> {
  /** How many items it holds at most. */
  readonly capacity: number;
  /** How many items it holds now. */
  readonly size: number;
  /** How many items were overwritten since creation. */
  readonly overwritten: number;
  /** Appends an item, overwriting the oldest one when full. */
  push(item: T): void;
  /** Calls `visit` from newest to oldest until it returns `false`. */
  visitNewestFirst(visit: (item: T) => boolean | undefined): void;
  /** The items, oldest first. */
  toArray(): T[];
  /** Removes every item. */
  clear(): void;
}

/** Creates a {@link RingBuffer}; `capacity` must be a positive integer. */
export function createRingBuffer<T>(capacity: number): RingBuffer<T> {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new RangeError(`capacity must be a positive integer, got ${String(capacity)}`);
  }
  const items = new Array<T | undefined>(capacity);
  let next = 0;
  let size = 0;
  let overwritten = 0;

  const at = (newestOffset: number): T =>
    items[(next - 1 - newestOffset + capacity) % capacity] as T;

  return {
    capacity,
    get size() {
      return size;
    },
    get overwritten() {
      return overwritten;
    },
    push(item) {
      items[next] = item;
      next = (next + 1) % capacity;
      if (size < capacity) size += 1;
      else overwritten += 1;
    },
    visitNewestFirst(visit) {
      for (let offset = 0; offset < size; offset += 1) {
        if (visit(at(offset)) === false) return;
      }
    },
    toArray() {
      const result: T[] = [];
      for (let offset = size - 1; offset >= 0; offset -= 1) result.push(at(offset));
      return result;
    },
    clear() {
      items.fill(undefined);
      next = 0;
      size = 0;
    },
  };
}

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
      buffer.push(new UnbuiltEvent("", buildFirst, build, input, at));
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
