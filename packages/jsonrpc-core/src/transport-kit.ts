import { ListenerSet } from "./internal/listener-set.js";
import type { Frame } from "./messages.js";
import type {
  FrameInfo,
  SendOptions,
  Transport,
  TransportCloseEvent,
  Unsubscribe,
} from "./transport.js";

/**
 * What transports are built from: the listener bookkeeping every implementation owns
 * ({@link TransportEvents}) and the tap, a decorator that sees or replaces what crosses a transport
 * ({@link tapTransport}).
 */

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

/**
 * What a decorator made with {@link tapTransport} does to what crosses it. Every hook is optional
 * and is called as a method of this object, so a class instance can serve as the hooks without a
 * closure per hook.
 */
export interface TransportTap {
  /**
   * Sees each incoming frame (a message or a batch) before any listener: returns the frame to
   * deliver (the same one or a replacement), or `undefined` to drop it. Absent or `undefined`,
   * frames pass untouched: a tap that has seen all it needs sets it to `undefined` (not `delete`,
   * which turns the hooks object into a dictionary the session holds for its life).
   */
  incoming?: ((frame: Frame, info: FrameInfo) => Frame | undefined) | undefined;
  /**
   * Sees each frame sent through the decorator before the inner transport: returns the frame to send
   * (the same one or a replacement, sent with the same options), `undefined` to drop it (`send()`
   * resolves), or a promise when the hook sent or settled the frame itself (`send()` settles with it).
   */
  outgoing?(frame: Frame, options: SendOptions | undefined): Frame | Promise<void> | undefined;
  /** Called each time the inner transport's `start()` resolves, before the decorator's does. */
  started?(): void;
  /** Sees each error of the inner transport before the decorator's error listeners. */
  error?(error: Error): void;
  /** Sees the inner transport's close event before the decorator's close listeners. */
  closed?(event: TransportCloseEvent): void;
}

/** A transport made by {@link tapTransport}, with a way in for what the decorator makes itself. */
export interface TappedTransport extends Transport {
  /** Delivers a frame the decorator made to its frame listeners (the `incoming` hook skips it). */
  emitFrame(frame: Frame, info?: FrameInfo): void;
  /** Reports an error the decorator found to its error listeners. */
  emitError(error: Error): void;
}

/**
 * Decorates `inner`: `start`, `send` and `close` go to it, and the hooks of `tap` see, replace or
 * drop incoming and outgoing frames and observe errors and the close event, before any listener of
 * the returned transport. Listeners subscribe to the decorator as to any transport (any number,
 * each removable alone); the decorator emits exactly one close event, right after `inner`'s. Early
 * frames are held by `inner` until `start()`; the decorator adds no queue of its own.
 *
 * This is the one way Patchbay wraps a transport (guards, session sharing, telemetry), so each
 * wrapper writes only what it does to frames. No allocation per frame beyond what the hooks make.
 */
export function tapTransport(inner: Transport, tap: TransportTap): TappedTransport {
  return new TapTransport(inner, tap);
}

/** A settled `send()`: one shared promise for every dropped frame. */
const DROPPED: Promise<void> = Promise.resolve();

/** {@link tapTransport}'s decorator: a class, so that a session holds one object, not a closure per member. */
class TapTransport implements TappedTransport {
  readonly #inner: Transport;
  readonly #tap: TransportTap;
  readonly #events = new TransportEvents();

  constructor(inner: Transport, tap: TransportTap) {
    this.#inner = inner;
    this.#tap = tap;
    // `inner` holds frames until it starts; a second queue here would only delay them.
    this.#events.start();
    inner.onFrame(this.#received);
    inner.onError((error) => {
      try {
        this.#tap.error?.(error);
      } finally {
        this.#events.emitError(error);
      }
    });
    inner.onClose((event) => {
      try {
        this.#tap.closed?.(event);
      } finally {
        this.#events.emitClose(event);
      }
    });
  }

  start(): Promise<void> {
    const started = this.#inner.start();
    if (this.#tap.started === undefined) return started;
    return started.then(() => this.#tap.started?.());
  }

  // Not async: every frame passes here, and a forwarded one settles on the inner transport's promise.
  send(frame: Frame, options?: SendOptions): Promise<void> {
    const tap = this.#tap;
    let outgoing: Frame | Promise<void> | undefined = frame;
    try {
      if (tap.outgoing !== undefined) {
        outgoing = tap.outgoing(frame, options);
        if (outgoing === undefined) return DROPPED;
        if (outgoing instanceof Promise) return outgoing;
      }
      return this.#inner.send(outgoing, options);
    } catch (error) {
      // A hook, or a transport that throws instead of rejecting, still fails only this send.
      return Promise.reject(error);
    }
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#events.onClose(listener);
  }

  emitFrame(frame: Frame, info?: FrameInfo): void {
    this.#events.emitFrame(frame, info);
  }

  emitError(error: Error): void {
    this.#events.emitError(error);
  }

  // The inner transport's frame listener itself (no closure that forwards to a method).
  readonly #received = (frame: Frame, info: FrameInfo): void => {
    const tap = this.#tap;
    if (tap.incoming === undefined) {
      this.#events.emitFrame(frame, info);
      return;
    }
    const delivered = tap.incoming(frame, info);
    if (delivered !== undefined) this.#events.emitFrame(delivered, info);
  };
}
