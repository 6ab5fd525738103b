import type { Frame, FrameInfo, Transport, TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { ContractWaitError, formatSeconds } from "./deadline.js";

interface Waiter {
  readonly done: (events: readonly unknown[]) => boolean;
  readonly what: string;
  readonly after: string;
  readonly timeoutMs: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** How a recorder names itself in failures and how long its waits last. */
export interface RecorderOptions {
  /** The side, as failures name it: `server side`. */
  readonly side: string;
  /** One event, as failures name it: `frame`, `close event`. */
  readonly noun: string;
  /** How long a wait lasts without a new event before it fails. */
  readonly waitTimeoutMs: number;
}

/**
 * Records one kind of event from a transport and lets a case wait until enough of them arrived.
 * A wait fails with a ContractWaitError naming what it waited for when no new event came within
 * the deadline (each new event restarts it, so a long stream that keeps coming never trips it), or
 * at once when the transport closes before enough events came.
 */
export class EventRecorder<T> {
  /** Every event recorded so far, in arrival order. */
  readonly events: T[] = [];
  readonly #waiters = new Set<Waiter>();
  readonly #options: RecorderOptions;
  #closed: TransportCloseEvent | undefined;

  constructor(options: RecorderOptions) {
    this.#options = options;
  }

  /** Adds one event, wakes the waiters it satisfies and restarts the deadline of the others. */
  record(event: T): void {
    this.events.push(event);
    for (const waiter of this.#waiters) {
      if (waiter.done(this.events)) this.#settle(waiter).resolve();
      else this.#arm(waiter);
    }
  }

  /** Fails every waiter still short of its count: no more events will come. */
  fail(event: TransportCloseEvent): void {
    this.#closed = event;
    for (const waiter of this.#waiters) {
      this.#settle(waiter).reject(this.#closedError(waiter.what, event));
    }
  }

  /**
   * Resolves with the events once at least `count` have arrived; `after` says after what, and
   * `timeoutMs` overrides the deadline (for a step that legitimately takes longer).
   */
  waitFor(count: number, after = "", timeoutMs?: number): Promise<T[]> {
    const what = count === 1 ? this.#options.noun : `${this.#options.noun} number ${count}`;
    return this.waitUntil((events) => events.length >= count, what, after, timeoutMs);
  }

  /** Resolves with the events once `done` holds for them; `what` names it in failures. */
  async waitUntil(
    done: (events: readonly T[]) => boolean,
    what: string,
    after = "",
    timeoutMs = this.#options.waitTimeoutMs,
  ): Promise<T[]> {
    if (done(this.events)) return this.events;
    if (this.#closed !== undefined) throw this.#closedError(what, this.#closed);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        done: done as Waiter["done"],
        what,
        after,
        timeoutMs,
        resolve,
        reject,
        timer: undefined,
      };
      this.#waiters.add(waiter);
      this.#arm(waiter);
    });
    return this.events;
  }

  /** Resolves with the event number `index` (0-based) once it has arrived. */
  async waitForEvent(index: number, after = "", timeoutMs?: number): Promise<T> {
    const events = await this.waitFor(index + 1, after, timeoutMs);
    return events[index] as T;
  }

  #arm(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    const { side } = this.#options;
    const { timeoutMs } = waiter;
    waiter.timer = setTimeout(() => {
      this.#settle(waiter);
      const after = waiter.after === "" ? "" : ` ${waiter.after}`;
      waiter.reject(
        new ContractWaitError(
          `${side}: no ${waiter.what} within ${formatSeconds(timeoutMs)}${after} (${this.#count()} so far)`,
        ),
      );
    }, timeoutMs);
  }

  #settle(waiter: Waiter): Waiter {
    clearTimeout(waiter.timer);
    this.#waiters.delete(waiter);
    return waiter;
  }

  #count(): string {
    const count = this.events.length;
    return `${count} ${this.#options.noun}${count === 1 ? "" : "s"}`;
  }

  #closedError(what: string, event: TransportCloseEvent): Error {
    const reason = `${event.initiator}${event.error ? `: ${event.error.message}` : ""}`;
    return new ContractWaitError(
      `${this.#options.side}: the transport closed (${reason}) after ${this.#count()}, while waiting for ${what}`,
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

/**
 * Subscribes to every event of `transport`; call before `start()` so that nothing is missed.
 * `side` names it in failures (`server side`).
 */
export function recordTransport(
  transport: Transport,
  side: string,
  waitTimeoutMs: number,
): TransportRecording {
  const frames = new EventRecorder<ReceivedFrame>({ side, noun: "frame", waitTimeoutMs });
  const errors = new EventRecorder<Error>({ side, noun: "error event", waitTimeoutMs });
  const closes = new EventRecorder<TransportCloseEvent>({
    side,
    noun: "close event",
    waitTimeoutMs,
  });
  transport.onFrame((frame, info) => frames.record({ frame, info }));
  transport.onError((error) => errors.record(error));
  transport.onClose((event) => {
    closes.record(event);
    frames.fail(event);
    errors.fail(event);
  });
  return { frames, errors, closes };
}
