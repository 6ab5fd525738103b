import { ListenerSet } from "./internal/listener-set.js";
import type { Frame } from "./messages.js";
import type { FrameInfo, TransportCloseEvent, Unsubscribe } from "./transport.js";

const NO_INFO: FrameInfo = Object.freeze({});

/**
 * The listener bookkeeping a `Transport` implementation needs, so transport authors only write
 * the channel: any number of frame, error and close listeners (each subscription removed on its own),
 * frames held until `start()`, and exactly one close event. A transport owns one, forwards its
 * `onFrame`/`onError`/`onClose` to it and calls `emitFrame`/`emitError`/`emitClose`.
 *
 * A listener that throws never stops the others: what a frame or close listener throws reaches the
 * error listeners, what an error listener throws is ignored. After the close event, frames are
 * dropped, listeners are released and new close listeners are never called.
 */
export class TransportEvents {
  readonly #errorListeners = new ListenerSet<[Error]>();
  // What a frame or close listener throws goes to the error listeners.
  readonly #frameListeners = new ListenerSet<[Frame, FrameInfo]>(this.#errorListeners);
  readonly #closeListeners = new ListenerSet<[TransportCloseEvent]>(this.#errorListeners);
  #queue: [Frame, FrameInfo][] | undefined = [];
  #closeEvent: TransportCloseEvent | undefined;

  /** True once the close event has been emitted. */
  get closed(): boolean {
    return this.#closeEvent !== undefined;
  }

  /** True once `start()` has released the queue (or the close event has discarded it). */
  get started(): boolean {
    return this.#queue === undefined;
  }

  /** Delivers the frames held so far, then every later frame at once; harmless to call again. */
  start(): void {
    const queued = this.#queue;
    if (queued === undefined) return;
    this.#queue = undefined;
    for (const [frame, info] of queued) this.emitFrame(frame, info);
  }

  /** Delivers one incoming frame, or holds it until `start()`; dropped after the close event. */
  emitFrame(frame: Frame, info: FrameInfo = NO_INFO): void {
    if (this.#closeEvent !== undefined) return;
    if (this.#queue !== undefined) {
      this.#queue.push([frame, info]);
      return;
    }
    const frameListeners = this.#frameListeners;
    const lone = frameListeners.listeners;
    if (typeof lone !== "function") {
      frameListeners.emit(frame, info);
      return;
    }
    // The lone listener (a transport's one Connection or tap) is called here, not through
    // `ListenerSet#emit`: one invocation less per frame on every layer.
    try {
      lone(frame, info);
    } catch (error) {
      frameListeners.failed(error);
    }
  }

  /** Reports a non-fatal error (or the one that precedes a failure close) to the error listeners. */
  emitError(error: Error): void {
    this.#errorListeners.emit(error);
  }

  /**
   * Emits the close event the first time it is called and returns `true`; later calls return `false`
   * and emit nothing, so a transport can call it from every path that ends it. Held frames are dropped.
   */
  emitClose(event: TransportCloseEvent): boolean {
    if (this.#closeEvent !== undefined) return false;
    this.#closeEvent = event;
    this.#queue = undefined;
    this.#closeListeners.emit(event);
    this.#frameListeners.clear();
    this.#errorListeners.clear();
    this.#closeListeners.clear();
    return true;
  }

  /** Subscribes to incoming frames. */
  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    if (this.#closeEvent !== undefined) return () => {};
    return this.#frameListeners.add(listener);
  }

  /** Subscribes to errors. */
  onError(listener: (error: Error) => void): Unsubscribe {
    if (this.#closeEvent !== undefined) return () => {};
    return this.#errorListeners.add(listener);
  }

  /** Subscribes to the close event; a listener added after it is never called. */
  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    if (this.#closeEvent !== undefined) return () => {};
    return this.#closeListeners.add(listener);
  }
}
