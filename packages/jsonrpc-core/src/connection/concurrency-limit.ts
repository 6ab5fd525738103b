/** Default bound on incoming requests waiting for a handler slot. */
export const DEFAULT_MAX_QUEUED_HANDLERS = 1000;

/**
 * Lets at most `max` tasks hold a slot; the others wait in arrival order, at most `maxWaiting` of
 * them, so that a peer flooding requests cannot grow the queue without bound.
 */
export class ConcurrencyLimit {
  readonly #max: number;
  readonly #maxWaiting: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /** `max` below 1 is treated as 1; `maxWaiting` below 0 as 0. */
  constructor(max: number, maxWaiting = Number.POSITIVE_INFINITY) {
    this.#max = Math.max(1, max);
    this.#maxWaiting = Math.max(0, maxWaiting);
  }

  /**
   * `true` when a slot is held at once, else a promise that resolves once one is; call `release()`
   * exactly once afterwards. Returns `undefined` (and holds nothing) when every slot is taken and
   * the wait queue is full.
   */
  acquire(): true | Promise<void> | undefined {
    if (this.#running < this.#max) {
      this.#running++;
      return true;
    }
    if (this.#waiting.length >= this.#maxWaiting) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Frees a slot, handing it to the next waiting task if there is one. */
  release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#running--;
  }
}
