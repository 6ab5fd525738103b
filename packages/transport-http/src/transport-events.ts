import type { Frame, FrameInfo, TransportCloseEvent, Unsubscribe } from "@patchbay/jsonrpc-core";

/**
 * The listener bookkeeping every Patchbay transport needs: any number of frame, error and close
 * listeners; frames queued until `start()`; exactly one close event. Transports own one and forward
 * their `onFrame`/`onError`/`onClose` to it.
 */
export class TransportEvents {
  private readonly frameListeners = new Set<(frame: Frame, info: FrameInfo) => void>();
  private readonly errorListeners = new Set<(error: Error) => void>();
  private readonly closeListeners = new Set<(event: TransportCloseEvent) => void>();
  private queue: [Frame, FrameInfo][] | undefined = [];
  private closeEvent: TransportCloseEvent | undefined;

  /** True once the close event has been emitted. */
  get closed(): boolean {
    return this.closeEvent !== undefined;
  }

  /** True once `start()` has released the queue. */
  get started(): boolean {
    return this.queue === undefined;
  }

  /** Delivers queued frames and every later one directly. */
  start(): void {
    const queued = this.queue;
    if (queued === undefined) return;
    this.queue = undefined;
    for (const [frame, info] of queued) this.emitFrame(frame, info);
  }

  /** Delivers (or queues) one incoming frame. Frames after close are dropped. */
  emitFrame(frame: Frame, info: FrameInfo = {}): void {
    if (this.closeEvent !== undefined) return;
    if (this.queue !== undefined) {
      this.queue.push([frame, info]);
      return;
    }
    for (const listener of [...this.frameListeners]) {
      try {
        listener(frame, info);
      } catch (error) {
        this.emitError(toError(error));
      }
    }
  }

  /** Reports a non-fatal error. */
  emitError(error: Error): void {
    for (const listener of [...this.errorListeners]) {
      try {
        listener(error);
      } catch {
        // A failing error listener must not break the transport.
      }
    }
  }

  /** Emits the close event once; later calls are ignored. Returns whether this call closed. */
  emitClose(event: TransportCloseEvent): boolean {
    if (this.closeEvent !== undefined) return false;
    this.closeEvent = event;
    this.queue = undefined;
    for (const listener of [...this.closeListeners]) {
      try {
        listener(event);
      } catch {
        // A failing close listener must not stop the others.
      }
    }
    this.frameListeners.clear();
    this.errorListeners.clear();
    this.closeListeners.clear();
    return true;
  }

  /** Subscribes to frames. */
  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** Subscribes to errors. */
  onError(listener: (error: Error) => void): Unsubscribe {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Subscribes to the close event; a listener added after close is never called. */
  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    if (this.closeEvent !== undefined) return () => {};
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }
}

/** Turns anything thrown into an Error. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
