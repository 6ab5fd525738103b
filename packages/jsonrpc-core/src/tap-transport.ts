import type { Frame } from "./messages.js";
import type {
  FrameInfo,
  SendOptions,
  Transport,
  TransportCloseEvent,
  Unsubscribe,
} from "./transport.js";
import { TransportEvents } from "./transport-events.js";

/**
 * What a decorator made with {@link tapTransport} does to what crosses it. Every hook is optional
 * and is called as a method of this object, so a class instance can serve as the hooks without a
 * closure per hook.
 */
export interface TransportTap {
  /**
   * Sees each incoming frame (a message or a batch) before any listener: returns the frame to
   * deliver (the same one or a replacement), or `undefined` to drop it.
   */
  incoming?(frame: Frame, info: FrameInfo): Frame | undefined;
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
