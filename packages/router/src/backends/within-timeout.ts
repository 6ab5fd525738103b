import type { RouterClock } from "./router-clock.js";

/** Rejects with `message` unless `promise` settles within `timeoutMs` on `clock`. */
export function withinTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number,
  clock: RouterClock,
  message: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(message)), timeoutMs);
    promise.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** An error's message, or the value as text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
