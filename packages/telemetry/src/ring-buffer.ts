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
