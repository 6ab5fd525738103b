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
 * Any number of listeners with unsubscribe; a throwing listener does not stop the others. Listeners
 * are held as they were given, with no wrapper: a lone one (the usual case: a transport's one
 * Connection) without an array, several in an array replaced on each change, so that an event
 * never copies it. Every session holds several sets, and every decorator of a transport more.
 */
export class ListenerSet<Args extends [unknown] | [unknown, unknown]> {
  /**
   * The lone listener, or several in an array, or none. Read (never written) by an emitter that
   * calls a lone listener itself, catching into `failed` (`TransportEvents.emitFrame`: per frame).
   */
  listeners: Call | readonly Call[] | undefined;
  /** Counts `clear()`s, so that an unsubscribe from before one removes nothing added after it. */
  #generation = 0;
  readonly #onListenerError: ((error: unknown) => void) | ListenerSet<[Error]>;

  /**
   * `onListenerError` receives whatever a listener throws (default: ignored); a set of error
   * listeners gets it as an Error (one object shared, not a closure per set).
   */
  constructor(onListenerError: ((error: unknown) => void) | ListenerSet<[Error]> = ignore) {
    this.#onListenerError = onListenerError;
  }

  /**
   * Adds a listener; the returned function removes it (harmless to call twice). The same function
   * added twice is called twice, and each returned function removes one of them.
   */
  add(listener: Listener<Args>): Unsubscribe {
    const call = listener as unknown as Call;
    const current = this.listeners;
    if (current === undefined) this.listeners = call;
    else if (typeof current === "function") this.listeners = [current, call];
    else this.listeners = [...current, call];
    const generation = this.#generation;
    let subscribed = true;
    return () => {
      if (!subscribed || generation !== this.#generation) return;
      subscribed = false;
      this.#remove(call);
    };
  }

  /** Calls every listener with `args`, in subscription order (those subscribed when it starts). */
  emit(...args: Args): void;
  emit(first: unknown, second?: unknown): void {
    const current = this.listeners;
    if (current === undefined) return;
    if (typeof current !== "function") {
      // The array is never changed in place: a listener added or removed meanwhile leaves it as is.
      for (const listener of current) this.#call(listener, first, second);
      return;
    }
    // The lone listener (the usual case) is called here, not through `#call`: one invocation less per event.
    try {
      if (second === undefined) current(first);
      else current(first, second);
    } catch (error) {
      this.failed(error);
    }
  }

  /** Removes every listener. */
  clear(): void {
    this.listeners = undefined;
    this.#generation += 1;
  }

  /** Number of listeners subscribed. */
  get size(): number {
    const current = this.listeners;
    if (current === undefined) return 0;
    return typeof current === "function" ? 1 : current.length;
  }

  #remove(call: Call): void {
    const current = this.listeners;
    if (current === call) {
      this.listeners = undefined;
      return;
    }
    if (current === undefined || typeof current === "function") return;
    const index = current.indexOf(call);
    if (index === -1) return;
    const rest = current.filter((_, at) => at !== index);
    this.listeners = rest.length === 1 ? (rest[0] as Call) : rest;
  }

  #call(listener: Call, first: unknown, second: unknown): void {
    try {
      if (second === undefined) listener(first);
      else listener(first, second);
    } catch (error) {
      this.failed(error);
    }
  }

  /** Hands what a listener threw to `onListenerError`. */
  failed(error: unknown): void {
    const onError = this.#onListenerError;
    if (typeof onError === "function") onError(error);
    else onError.emit(toError(error));
  }
}

/** Turns anything thrown into an Error, keeping Errors as they are. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
