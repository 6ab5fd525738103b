import type { Unsubscribe } from "../transport.js";

/** Any number of listeners with unsubscribe; a throwing listener does not stop the others. */
export class ListenerSet<Args extends unknown[]> {
  readonly #listeners = new Set<(...args: Args) => void>();
  readonly #onListenerError: (error: unknown) => void;

  /** `onListenerError` receives whatever a listener throws (default: ignored). */
  constructor(onListenerError: (error: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  /** Adds a listener; the returned function removes it (harmless to call twice). */
  add(listener: (...args: Args) => void): Unsubscribe {
    // Wrap so the same function can be subscribed twice and removed independently.
    const entry = (...args: Args) => listener(...args);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Calls every listener with `args`, in subscription order. */
  emit(...args: Args): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(...args);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners.clear();
  }

  /** Number of listeners subscribed. */
  get size(): number {
    return this.#listeners.size;
  }
}

/** Turns anything thrown into an Error, keeping Errors as they are. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
