/**
 * The cancellation of one request, readable without an `AbortSignal`: a handler context carries
 * one, and a request sent on another connection for that handler can pass it as
 * `RequestOptions.cancellation` instead of `signal`. The signal is made only when someone reads it
 * (an `AbortSignal` and its `EventTarget` cost more than the rest of a relayed request).
 */
export interface Cancellation {
  /** True once the request was cancelled (by the peer, or because the connection closed). */
  readonly aborted: boolean;
  /** Why, once aborted. */
  readonly reason: unknown;
  /** Calls `listener` once when aborted (never if it already was: read `aborted` first). */
  onAbort(listener: (reason: unknown) => void): () => void;
}

/** A Cancellation whose `AbortSignal` exists only once read. */
export class LazyAbort implements Cancellation {
  /**
   * True once aborted: a field, not a getter, since it is read several times per request (set only
   * by `abort`; callers see it through the read-only `Cancellation`).
   */
  aborted = false;
  /** Why, once aborted (set only by `abort`). */
  reason: unknown;
  #controller: AbortController | undefined;
  #listeners: Array<(reason: unknown) => void> | undefined;

  /** An `AbortSignal` that follows this cancellation (made on first read). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts once: the signal (if made) first, then the listeners in order. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(reason);
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) return noop;
    if (this.#listeners === undefined) this.#listeners = [];
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.#listeners?.splice(index, 1);
    };
  }
}

function noop(): void {}
