const waitErrorMarker = Symbol.for("@patchbay/contract-tests/ContractWaitError");

/**
 * A step of a case waited for something a rule promises, and it did not come in time. The suite
 * puts the rule's name in front of the message.
 */
export class ContractWaitError extends Error {
  /** Creates the report of one missed deadline; `message` says what was awaited. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ContractWaitError";
    Object.defineProperty(this, waitErrorMarker, { value: true });
  }

  /** True for a ContractWaitError from any installed copy of this package. */
  static isInstance(value: unknown): value is ContractWaitError {
    return typeof value === "object" && value !== null && waitErrorMarker in value;
  }
}

/** `2000` as "2 s", `500` as "0.5 s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * Resolves as `promise` does, or rejects with a ContractWaitError made by `describe(ms)` when it has
 * not settled within `ms` milliseconds.
 */
export function within<T>(
  promise: Promise<T>,
  ms: number,
  describe: (duration: string) => string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ContractWaitError(describe(formatSeconds(ms)))), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Resolves once every promise has resolved; rejects with the first rejection, or with a
 * ContractWaitError (`<what>: 12 of 10000 resolved, none more within 2 s`) when none settles for
 * `ms` milliseconds, so a long batch that keeps making progress is never cut short.
 */
export function allWithProgress(
  promises: readonly Promise<unknown>[],
  ms: number,
  what: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const progress = `${settled} of ${promises.length} resolved, none more within ${formatSeconds(ms)}`;
        reject(new ContractWaitError(`${what}: ${progress}`));
      }, ms);
    };
    const step = () => {
      settled++;
      if (settled === promises.length) {
        clearTimeout(timer);
        resolve();
      } else arm();
    };
    if (promises.length === 0) return resolve();
    arm();
    for (const promise of promises) {
      promise.then(step, (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      });
    }
  });
}
