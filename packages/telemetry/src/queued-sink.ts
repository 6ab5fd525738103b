import type { TelemetryEvent } from "./event.js";
import type { EventSink } from "./event-sink.js";

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
  /** Queues an event; returns `false` (and counts it in `dropped`) when the queue is full. */
  enqueue(event: TelemetryEvent): boolean;
  /** Events dropped because the sink fell behind. */
  readonly dropped: number;
  /** Events lost because a `write` failed. */
  readonly failed: number;
  /** Events waiting, including the batch being written. */
  readonly pending: number;
  /** Resolves once every queued event has been written (never, if the sink hangs). */
  flush(): Promise<void>;
  /**
   * Flushes, then closes the sink; later events are dropped. Gives up after `timeoutMs` (default
   * 5000) so a hung sink cannot hang shutdown; what was still queued then counts as dropped.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** Puts `sink` behind a bounded queue with a dropped-events counter. */
export function createQueuedSink(sink: EventSink, options: QueuedSinkOptions = {}): QueuedSink {
  const maxQueue = options.maxQueue ?? 10_000;
  const maxBatch = options.maxBatch ?? 500;
  let queue: TelemetryEvent[] = [];
  let writing = 0;
  let dropped = 0;
  let failed = 0;
  let draining: Promise<void> | undefined;
  let closed = false;

  const drain = async (): Promise<void> => {
    // Let the caller's turn finish first: writing never starts inside `enqueue`.
    await Promise.resolve();
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      writing = batch.length;
      try {
        await sink.write(batch);
      } catch (error) {
        failed += batch.length;
        options.onError?.(error);
      }
      writing = 0;
    }
    draining = undefined;
  };

  return {
    enqueue(event) {
      if (closed || queue.length + writing >= maxQueue) {
        dropped += 1;
        return false;
      }
      queue.push(event);
      draining ??= drain();
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
    async flush() {
      while (draining !== undefined) await draining;
    },
    async close(timeoutMs = 5000) {
      if (closed) return;
      closed = true;
      const finished = (async () => {
        while (draining !== undefined) await draining;
        await sink.close?.();
        return "finished" as const;
      })();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<"expired">((resolve) => {
        timer = setTimeout(() => resolve("expired"), timeoutMs);
      });
      const outcome = await Promise.race([finished, expired]);
      clearTimeout(timer);
      if (outcome === "expired") {
        dropped += queue.length + writing;
        queue = [];
        writing = 0;
      }
    },
  };
}
