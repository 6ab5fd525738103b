import type { Frame, FrameInfo, Transport, TransportCloseEvent } from "@patchbay/jsonrpc-core";

interface Waiter {
  readonly done: (events: readonly unknown[]) => boolean;
  readonly what: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Records one kind of event from a transport and lets a case wait until a number of them arrived.
 * Waiting fails (instead of hanging) when the transport closes before enough events came.
 */
export class EventRecorder<T> {
  /** Every event recorded so far, in arrival order. */
  readonly events: T[] = [];
  readonly #waiters = new Set<Waiter>();
  readonly #label: string;
  #closed: TransportCloseEvent | undefined;

  constructor(label: string) {
    this.#label = label;
  }

  /** Adds one event and wakes the waiters it satisfies. */
  record(event: T): void {
    this.events.push(event);
    for (const waiter of this.#waiters) {
      if (waiter.done(this.events)) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /** Fails every waiter still short of its count: no more events will come. */
  fail(event: TransportCloseEvent): void {
    this.#closed = event;
    for (const waiter of this.#waiters) {
      this.#waiters.delete(waiter);
      waiter.reject(this.#closedError(waiter.what, event));
    }
  }

  /** Resolves with the events once at least `count` have arrived. */
  waitFor(count: number): Promise<T[]> {
    return this.waitUntil((events) => events.length >= count, `${count} expected events`);
  }

  /** Resolves with the events once `done` holds for them; `what` describes it in failures. */
  async waitUntil(done: (events: readonly T[]) => boolean, what: string): Promise<T[]> {
    if (done(this.events)) return this.events;
    if (this.#closed !== undefined) throw this.#closedError(what, this.#closed);
    await new Promise<void>((resolve, reject) => {
      this.#waiters.add({ done: done as Waiter["done"], what, resolve, reject });
    });
    return this.events;
  }

  /** Resolves with the event number `index` (0-based) once it has arrived. */
  async waitForEvent(index: number): Promise<T> {
    const events = await this.waitFor(index + 1);
    return events[index] as T;
  }

  #closedError(what: string, event: TransportCloseEvent): Error {
    return new Error(
      `${this.#label}: the transport closed (${event.initiator}${event.error ? `: ${event.error.message}` : ""}) after ${this.events.length} events, while waiting for ${what}`,
      { cause: event.error },
    );
  }
}

/** A frame with the facts that came with it. */
export interface ReceivedFrame {
  readonly frame: Frame;
  readonly info: FrameInfo;
}

/** Everything one transport of a pair emitted during a case. */
export interface TransportRecording {
  readonly frames: EventRecorder<ReceivedFrame>;
  readonly errors: EventRecorder<Error>;
  readonly closes: EventRecorder<TransportCloseEvent>;
}

/** Subscribes to every event of `transport`; call before `start()` so that nothing is missed. */
export function recordTransport(transport: Transport, label: string): TransportRecording {
  const frames = new EventRecorder<ReceivedFrame>(`${label} frames`);
  const errors = new EventRecorder<Error>(`${label} errors`);
  const closes = new EventRecorder<TransportCloseEvent>(`${label} close events`);
  transport.onFrame((frame, info) => frames.record({ frame, info }));
  transport.onError((error) => errors.record(error));
  transport.onClose((event) => {
    closes.record(event);
    frames.fail(event);
    errors.fail(event);
  });
  return { frames, errors, closes };
}
