/** Lets at most `max` tasks hold a slot; the others wait in arrival order. */
export class ConcurrencyLimit {
  readonly #max: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /** `max` below 1 is treated as 1. */
  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  /** Resolves once a slot is held; call `release()` exactly once afterwards. */
  acquire(): Promise<void> {
    if (this.#running < this.#max) {
      this.#running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Frees a slot, handing it to the next waiting task if there is one. */
  release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#running--;
  }
}
