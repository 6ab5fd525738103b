/** Collects items and lets a test wait until a given number has arrived (no polling, no sleeps). */
export interface Collector<T> {
  readonly items: T[];
  push(item: T): void;
  /** Resolves with the items once there are at least `count`. */
  waitFor(count: number): Promise<T[]>;
}

export function createCollector<T>(): Collector<T> {
  const items: T[] = [];
  const waiters: { count: number; resolve: (items: T[]) => void }[] = [];
  return {
    items,
    push(item) {
      items.push(item);
      for (const waiter of [...waiters]) {
        if (items.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(items);
        }
      }
    },
    waitFor(count) {
      if (items.length >= count) return Promise.resolve(items);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
}
