import type { TelemetryEvent } from "./event.js";
import type { LazyEvent } from "./lazy-event.js";

/**
 * Where events go besides the in-memory store: a file, a log stream, a remote collector. Events
 * arrive in batches through a bounded queue (see `createQueuedSink`), so a slow `write` never holds
 * up the message path, and redacted: request events are recorded unbuilt and built (bounded and
 * redacted, once, shared with the store) when the queue drains, with the secrets known by then.
 */
export interface EventSink {
  /** Persists a batch of events, oldest first; the next batch waits until this one settles. */
  write(events: readonly TelemetryEvent[]): Promise<void>;
  /**
   * Used instead of `write` when given: events recorded lazily arrive unbuilt, so a sink that reads
   * few of them (a live view nobody may be watching) builds only those it reads, with
   * `builtEvent` (the one shared build: bounded and redacted). It may read an unbuilt event's
   * request fields with `requestEndOf`, which are not redacted: counters and keys only, never shown
   * or logged. It must not keep an unbuilt event longer than it means to show it (a bounded count).
   */
  writeUnbuilt?(events: readonly (TelemetryEvent | LazyEvent)[]): Promise<void>;
  /**
   * Which events the sink wants (default: all). Events it declines are never queued for it, so a
   * sink that cares about a few event types costs nothing on the message path for the others.
   */
  accepts?(event: TelemetryEvent): boolean;
  /**
   * Which event types the sink wants, when the type alone decides (`accepts`, if also given, is
   * then asked only about accepted types). The telemetry asks once per type and remembers the
   * answer, so it must not change. Declining types this way means events of those types are never
   * queued for the sink, and never built for it (see `Telemetry.recordDeferred`).
   */
  acceptsType?(eventType: string): boolean;
  /** Releases resources (file handles); called once by `Telemetry.close()` after the last write. */
  close?(): Promise<void>;
}
