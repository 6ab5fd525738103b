import type { TelemetryEvent } from "./event.js";
import type { EventSink } from "./event-sink.js";
import { builtEvent, type LazyEvent, lazyEventMark } from "./lazy-event.js";

/** Options of {@link createQueuedSink}. */
export interface QueuedSinkOptions {
  /** Events waiting at most; past it new events are dropped and counted (default 10000). */
  readonly maxQueue?: number;
  /** Events handed to one `write` at most (default 500). */
  readonly maxBatch?: number;
  /** Told about a failed `write` (its events are lost and counted in `failed`). */
  readonly onError?: (error: unknown) => void;
}

/** A sink behind a bounded queue: `enqueue` returns at once, a background loop drains the queue. */
export interface QueuedSink {
  /**
   * Queues an event (unless the sink's `acceptsType` or `accepts` declines it); returns `false` (and
   * counts it in `dropped`) when the queue is full. A {@link LazyEvent} is built when the queue
   * drains (or at once, for a sink with `accepts`, which needs the built event to decide), or handed
   * on unbuilt to a sink with `writeUnbuilt`. `typeAccepted`: the caller already had `mayAccept`
   * say yes to the event's type (it is not asked again).
   */
  enqueue(event: TelemetryEvent | LazyEvent, typeAccepted?: boolean): boolean;
  /** False when the sink declines events of this type by `acceptsType`; true when it may want them. */
  mayAccept(eventType: string): boolean;
  /** Events dropped because the sink fell behind. */
  readonly dropped: number;
  /** Events lost because a `write` failed. */
  readonly failed: number;
  /** Events waiting, including the batch being written. */
  readonly pending: number;
  /**
   * Waits until every queued event has been written, or `timeoutMs` (default 5000) has passed, so a
   * hung sink cannot hang the caller. Resolves with the number of events not yet written then (0 when
   * everything was); those stay queued and the sink may still catch up.
   */
  flush(timeoutMs?: number): Promise<number>;
  /**
   * Flushes, then closes the sink; later events are dropped. Gives up after `timeoutMs` (default
   * 5000) so a hung sink cannot hang shutdown; what was still queued then counts as dropped.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** Default bound of `flush` and `close`, in milliseconds. */
export const DEFAULT_SINK_TIMEOUT_MS = 5000;

// Timers cannot hold more (Node fires at once past it); a longer bound means no bound.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Resolves `true` once `work` settles, or `false` once `timeoutMs` passes first. */
async function settlesWithin(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  if (!(timeoutMs <= MAX_TIMER_MS)) {
    await work;
    return true;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([work.then(() => true as const), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Puts `sink` behind a bounded queue with a dropped-events counter. */
export function createQueuedSink(sink: EventSink, options: QueuedSinkOptions = {}): QueuedSink {
  const maxQueue = options.maxQueue ?? 10_000;
  const maxBatch = options.maxBatch ?? 500;
  let queue: Array<TelemetryEvent | LazyEvent> = [];
  let writing = 0;
  let dropped = 0;
  let failed = 0;
  let draining: Promise<void> | undefined;
  let closed = false;

  // Started in a later turn (see `enqueue`): writing never starts inside the caller's.
  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      writing = batch.length;
      try {
        // Lazy events are built (bounded and redacted) here, at the sink, in the drain's own turn,
        // unless the sink builds those it reads itself.
        await (sink.writeUnbuilt === undefined
          ? sink.write(batch.map(builtEvent))
          : sink.writeUnbuilt(batch));
      } catch (error) {
        failed += batch.length;
        options.onError?.(error);
      }
      writing = 0;
    }
    draining = undefined;
  };

  const drained = async (): Promise<void> => {
    while (draining !== undefined) await draining;
  };

  return {
    mayAccept(eventType) {
      return sink.acceptsType === undefined || sink.acceptsType(eventType);
    },
    enqueue(event, typeAccepted) {
      if (typeAccepted !== true && sink.acceptsType !== undefined) {
        const type = lazyEventMark in event ? event.eventType : event.event_type;
        if (!sink.acceptsType(type)) return true;
      }
      if (sink.accepts !== undefined && !sink.accepts(builtEvent(event))) return true;
      if (closed || queue.length + writing >= maxQueue) {
        dropped += 1;
        return false;
      }
      queue.push(event);
      draining ??= Promise.resolve().then(drain);
      return true;
    },
    get dropped() {
      return dropped;
    },
    get failed() {
      return failed;
    },
    get pending() {
      return queue.length + writing;
    },
    async flush(timeoutMs = DEFAULT_SINK_TIMEOUT_MS) {
      if (draining === undefined) return 0;
      await settlesWithin(drained(), timeoutMs);
      return queue.length + writing;
    },
    async close(timeoutMs = DEFAULT_SINK_TIMEOUT_MS) {
      if (closed) return;
      closed = true;
      const finished = (async () => {
        await drained();
        await sink.close?.();
      })();
      if (!(await settlesWithin(finished, timeoutMs))) {
        dropped += queue.length + writing;
        queue = [];
        writing = 0;
      }
    },
  };
}
