import { MAX_EVENT_FIELD_LENGTH, truncateText } from "./bounded-text.js";
import type { EventInput, TelemetryEvent } from "./event.js";
import { createEventBuilder } from "./event-builder.js";
import type { EventQuery } from "./event-query.js";
import type { EventSink } from "./event-sink.js";
import type { LazyEventBuilder } from "./lazy-event.js";
import {
  createMemoryEventStore,
  type MemoryEventStore,
  UnbuiltEvent,
} from "./memory-event-store.js";
import { type BoundCounter, createMetricRegistry, type MetricRegistry } from "./metric-registry.js";
import { NOOP_OPEN_TELEMETRY_BRIDGE, type OpenTelemetryBridge } from "./open-telemetry-bridge.js";
import { createQueuedSink, type QueuedSink } from "./queued-sink.js";
import { createRedactor, type Redact, type Redactor, type RedactorOptions } from "./redact.js";
import { createTelemetryMetrics, type TelemetryMetrics } from "./telemetry-metrics.js";
import { createIdGenerator, type IdGenerator, type RandomSource } from "./trace-context.js";

/** Options of {@link createTelemetry}. */
export interface TelemetryOptions {
  /** Default `source` of recorded events (default `patchbay`). */
  readonly source?: string;
  /** Events kept in memory for queries (default 1000). */
  readonly capacity?: number;
  /** Further sinks (a JSON Lines file, say); each sits behind its own bounded queue. */
  readonly sinks?: readonly EventSink[];
  /** Queue length per sink before events are dropped (default 10000). */
  readonly maxQueue?: number;
  /** Told when a sink's write fails. */
  readonly onSinkError?: (error: unknown) => void;
  /** What to mask, when `redact` is not given. */
  readonly redaction?: RedactorOptions;
  /** The one redaction function for events, sinks and metric labels (default from `redaction`). */
  readonly redact?: Redact;
  /** Registry for the metrics (default: a new one whose labels use the same `redact`). */
  readonly registry?: MetricRegistry;
  /** Span emission (default: none; see `loadOpenTelemetryBridge`). */
  readonly openTelemetry?: OpenTelemetryBridge;
  /** Clock in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Monotonic clock in milliseconds for durations (default `performance.now`). */
  readonly monotonicNow?: () => number;
  /** Random bytes for trace and span ids (default `crypto.getRandomValues`). */
  readonly random?: RandomSource;
}

/** The telemetry hub that decorators, the router and the apps share. */
export interface Telemetry {
  /** Default event source. */
  readonly source: string;
  /** The in-memory store `get_events` queries. */
  readonly store: MemoryEventStore;
  /** The metric registry (`registry.render()` for `/metrics`). */
  readonly registry: MetricRegistry;
  /** The standard instruments. */
  readonly metrics: TelemetryMetrics;
  /** The redaction applied to every event and metric label. */
  readonly redact: Redact;
  /**
   * Adds literal secrets (a config's `env` values, expanded `${VAR}`s, URL credentials) that
   * `redact` masks from now on, in events, sinks, metric labels and wherever else it is applied.
   */
  addSecrets(values: Iterable<string>): void;
  /** Trace and span ids. */
  readonly ids: IdGenerator;
  /** Span emission. */
  readonly openTelemetry: OpenTelemetryBridge;
  /** The clock, in epoch milliseconds. */
  now(): number;
  /** The monotonic clock durations are measured with, in milliseconds. */
  monotonicNow(): number;
  /**
   * Records an event: fills defaults, redacts it, stores it and queues it for every sink, without
   * waiting for any sink. Returns the stored event.
   */
  record(input: EventInput): TelemetryEvent;
  /**
   * Records an event like `record`, without returning it, and without building it: it is filled,
   * bounded and redacted (with the secrets known by then) when first read, by a query or by a sink
   * that wants its type (see `EventSink.acceptsType`). Its time is taken now.
   */
  recordDeferred?(input: EventInput): void;
  /**
   * Records an event of type `eventType` whose input `describe(subject)` makes only when the event
   * is first read (then built like `recordDeferred`'s): a request tracker passes itself as the
   * subject, so recording allocates no input and no data. `describe` must read only what stays
   * the same for the subject's life. Its time is taken now.
   */
  recordLazily?<T>(eventType: string, describe: (subject: T) => EventInput, subject: T): void;
  /** Same as `store.query`: validated, most recent first, 100 by default. */
  query(query?: EventQuery | Readonly<Record<string, unknown>>): TelemetryEvent[];
  /** Events dropped so far because a sink fell behind (summed over sinks). */
  readonly dropped: number;
  /**
   * Waits until every sink has written what was queued, giving up after `timeoutMs` (default 5000) so
   * a hung sink cannot hang the caller. Resolves with the number of events not yet written by then,
   * summed over sinks (0 when everything was written); they stay queued.
   */
  flush(timeoutMs?: number): Promise<number>;
  /**
   * Flushes and closes every sink, giving up on a sink after `timeoutMs` (default 5000), and shuts
   * down an OpenTelemetry bridge that owns its SDK (an OTLP exporter: its last export is sent);
   * later events still reach the memory store only.
   */
  close(timeoutMs?: number): Promise<void>;
}

function isRedactor(redact: Redact): redact is Redactor {
  return typeof (redact as Partial<Redactor>).addSecretValues === "function";
}

// A given `redact` that cannot learn secrets gets a second pass for them, added on first need.
function learningRedact(options: TelemetryOptions): {
  redact: Redact;
  addSecrets(values: Iterable<string>): void;
} {
  let current: Redact = options.redact ?? createRedactor(options.redaction);
  const learner = isRedactor(current) ? current : undefined;
  let extra: Redactor | undefined;
  return {
    // A redactor that learns secrets itself is never replaced: handed out as it is, a call less.
    redact: learner !== undefined ? current : <T>(value: T): T => current(value),
    addSecrets(values) {
      if (learner !== undefined) {
        learner.addSecretValues(values);
        return;
      }
      if (extra === undefined) {
        const second = createRedactor({ replaceDefaultKeys: true });
        const first = current;
        current = <T>(value: T): T => second(first(value));
        extra = second;
      }
      extra.addSecretValues(values);
    },
  };
}

const sameInput = (input: EventInput): EventInput => input;

/** Event types whose counter series stay bound (the events counter keeps 200 label sets). */
const MAX_BOUND_EVENT_TYPES = 200;

/** What the telemetry keeps per type of the events recorded lazily (see `recordLazily`). */
interface TypeTally {
  readonly wanting: readonly QueuedSink[];
  /** Recorded since the last render (a kept tally only). */
  count: number;
  /** False past `MAX_BOUND_EVENT_TYPES` types: made per event and counted at once. */
  readonly kept: boolean;
}

/** Creates a {@link Telemetry}. */
export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const now = options.now ?? Date.now;
  const { redact, addSecrets } = learningRedact(options);
  const source = redact(truncateText(options.source ?? "patchbay", MAX_EVENT_FIELD_LENGTH));
  const store = createMemoryEventStore({ capacity: options.capacity ?? 1000, now });
  const registry = options.registry ?? createMetricRegistry({ redact });
  const metrics = createTelemetryMetrics(registry);
  const queues: QueuedSink[] = (options.sinks ?? []).map((sink) =>
    createQueuedSink(sink, {
      ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
      ...(options.onSinkError === undefined ? {} : { onError: options.onSinkError }),
    }),
  );
  const ids = createIdGenerator(options.random);
  let reportedDrops = 0;
  const countDropped = () => queues.reduce((total, queue) => total + queue.dropped, 0);
  const droppedCounter = registry.counter({
    name: "patchbay_telemetry_events_dropped_total",
    help: "Telemetry events dropped because a sink fell behind.",
  });
  let reportedLabelTruncations = 0;
  registry.addCollector(() => {
    const dropped = countDropped();
    droppedCounter.inc(undefined, dropped - reportedDrops);
    reportedDrops = dropped;
    const truncated = registry.truncatedLabelValues;
    // Counted before the render that reports it, so this counter's own label is never the one cut.
    if (truncated > reportedLabelTruncations) {
      metrics.truncations.inc({ what: "label_value" }, truncated - reportedLabelTruncations);
      reportedLabelTruncations = truncated;
    }
  });
  const { build, field } = createEventBuilder({
    redact,
    source,
    ids,
    truncations: metrics.truncations,
  });

  // The events counter's series per event type as given, bound once (the types are few).
  const eventCounters = new Map<string, BoundCounter>();
  const countEvent = (eventType: string, count = 1): void => {
    let counter = eventCounters.get(eventType);
    if (counter === undefined) {
      counter = metrics.events.bind({ event_type: field(eventType) });
      // A type cut to its limit is counted as cut each time: only short ones are kept bound.
      if (eventType.length <= MAX_EVENT_FIELD_LENGTH && eventCounters.size < MAX_BOUND_EVENT_TYPES)
        eventCounters.set(eventType, counter);
    }
    counter.inc(count);
  };

  // Per type of the events recorded lazily (one lookup per event): the queues that may want it,
  // asked once per type (`acceptsType` decides by the type alone: a type no sink wants is queued
  // nowhere and asks no one), and how many were recorded since the last render, reported to the
  // events counter before each render (recording calls no counter). Types past the first
  // `MAX_BOUND_EVENT_TYPES` are asked and counted per event.
  const tallies = new Map<string, TypeTally>();
  registry.addCollector(() => {
    for (const [eventType, tally] of tallies) {
      if (tally.count === 0) continue;
      countEvent(eventType, tally.count);
      tally.count = 0;
    }
  });
  const tallyOf = (eventType: string): TypeTally => {
    const kept = tallies.size < MAX_BOUND_EVENT_TYPES;
    const tally = { wanting: queues.filter((queue) => queue.mayAccept(eventType)), count: 0, kept };
    if (kept) tallies.set(eventType, tally);
    return tally;
  };

  // Stored and queued unbuilt: the store's query or a sink's queue builds it, once, when it reads it.
  const buildDescribed: LazyEventBuilder = (describe, subject, at) =>
    build((describe as (subject: unknown) => EventInput)(subject), at);
  const recordLazily = <T>(
    eventType: string,
    describe: (subject: T) => EventInput,
    subject: T,
  ): void => {
    const event = new UnbuiltEvent(eventType, buildDescribed, describe, subject, now());
    store.add(event);
    const tally = tallies.get(eventType) ?? tallyOf(eventType);
    const wanting = tally.wanting;
    // Their `mayAccept` said yes to this type: not asked again per event.
    for (let index = 0; index < wanting.length; index += 1) wanting[index]?.enqueue(event, true);
    if (tally.kept) tally.count += 1;
    else countEvent(eventType, 1);
  };

  const record = (input: EventInput): TelemetryEvent => {
    const event = build(input, now());
    store.add(event);
    for (const queue of queues) queue.enqueue(event);
    countEvent(event.event_type);
    return event;
  };

  return {
    source,
    store,
    registry,
    metrics,
    redact,
    addSecrets,
    ids,
    openTelemetry: options.openTelemetry ?? NOOP_OPEN_TELEMETRY_BRIDGE,
    now,
    // Bound rather than wrapped: the clock is read twice per request, and a wrapper is a call more.
    monotonicNow: options.monotonicNow ?? performance.now.bind(performance),
    record,
    recordDeferred(input) {
      recordLazily(input.event_type, sameInput, input);
    },
    recordLazily,
    query: (query) => store.query(query),
    get dropped() {
      return countDropped();
    },
    async flush(timeoutMs) {
      const unwritten = await Promise.all(queues.map((queue) => queue.flush(timeoutMs)));
      return unwritten.reduce((total, count) => total + count, 0);
    },
    async close(timeoutMs) {
      await Promise.all([
        ...queues.map((queue) => queue.close(timeoutMs)),
        options.openTelemetry?.shutdown?.(),
      ]);
    },
  };
}
