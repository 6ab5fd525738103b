import type { Unsubscribe } from "../transport.js";

type Listener<Args extends unknown[]> = (...args: Args) => void;
/**
 * How listeners are held and called: with one or two arguments, never spread from an array, so that
 * an event (a frame crossing every transport and decorator) allocates nothing. A missing second
 * argument is not passed, so a one-argument listener sees exactly one.
 */
type Call = (first: unknown, second?: unknown) => void;

/** The default `onListenerError`: one function for every set, not one per set. */
const ignore = (): void => {};

/**
 * Any number of listeners with unsubscribe; a throwing listener does not stop the others. A lone
 * listener (the usual case: a transport's one Connection) is held without a `Set`, so that the
 * several sets of every session cost little memory.
 */
export class ListenerSet<Args extends [unknown] | [unknown, unknown]> {
  #listeners: Call | Set<Call> | undefined;
  readonly #onListenerError: (error: unknown) => void;

  /** `onListenerError` receives whatever a listener throws (default: ignored). */
  constructor(onListenerError: (error: unknown) => void = ignore) {
    this.#onListenerError = onListenerError;
  }

  /** Adds a listener; the returned function removes it (harmless to call twice). */
  add(listener: Listener<Args>): Unsubscribe {
    // Wrap so the same function can be subscribed twice and removed independently.
    const call = listener as unknown as Call;
    const entry: Call = (first, second) =>
      second === undefined ? call(first) : call(first, second);
    const current = this.#listeners;
    if (current === undefined) this.#listeners = entry;
    else if (typeof current === "function") this.#listeners = new Set([current, entry]);
    else current.add(entry);
    return () => {
      const now = this.#listeners;
      if (now === entry) this.#listeners = undefined;
      else if (typeof now === "object") now.delete(entry);
    };
  }

  /** Calls every listener with `args`, in subscription order (those subscribed when it starts). */
  emit(...args: Args): void;
  emit(first: unknown, second?: unknown): void {
    const current = this.#listeners;
    if (current === undefined) return;
    if (typeof current === "function") {
      this.#call(current, first, second);
      return;
    }
    for (const listener of [...current]) this.#call(listener, first, second);
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners = undefined;
  }

  /** Number of listeners subscribed. */
  get size(): number {
    const current = this.#listeners;
    if (current === undefined) return 0;
    return typeof current === "function" ? 1 : current.size;
  }

  #call(listener: Call, first: unknown, second: unknown): void {
    try {
      listener(first, second);
    } catch (error) {
      this.#onListenerError(error);
    }
  }
}

/** Turns anything thrown into an Error, keeping Errors as they are. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
