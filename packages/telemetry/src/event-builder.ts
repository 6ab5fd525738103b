import { boundEventData, MAX_EVENT_FIELD_LENGTH, truncateText } from "./bounded-text.js";
import type { EventInput, TelemetryEvent } from "./event.js";
import type { Counter } from "./metric-registry.js";
import type { Redact } from "./redact.js";
import type { IdGenerator } from "./trace-context.js";

/** What {@link createEventBuilder} needs from its telemetry. */
export interface EventBuilderOptions {
  /** The telemetry's one redaction. */
  readonly redact: Redact;
  /** The default `source` (already bounded and redacted). */
  readonly source: string;
  /** Trace ids for events recorded without one. */
  readonly ids: IdGenerator;
  /** `patchbay_telemetry_truncations_total{what}`: counts what bounding cut. */
  readonly truncations: Counter;
}

/** Turns what was recorded into the event a query or a sink reads: filled, bounded, redacted. */
export interface EventBuilder {
  /** The event of `input`, recorded at `millisecond` (epoch). */
  build(input: EventInput, millisecond: number): TelemetryEvent;
  /** One event field (type, source, backend, method, tool): bounded, then redacted. */
  field(text: string): string;
}

/**
 * Creates the {@link EventBuilder} of one telemetry. It runs when an event is read, not when it is
 * recorded (see `Telemetry.recordLazily`): the one place where an event is redacted.
 */
export function createEventBuilder(options: EventBuilderOptions): EventBuilder {
  const { redact, source, ids, truncations } = options;
  // Event fields come from peers (method and tool names): bounded before anything keeps them.
  const field = (text: string): string => {
    if (text.length <= MAX_EVENT_FIELD_LENGTH) return redact(text);
    truncations.inc({ what: "event_field" });
    return redact(truncateText(text, MAX_EVENT_FIELD_LENGTH));
  };
  const boundedData = (data: Readonly<Record<string, unknown>>) => {
    const bounded = boundEventData(data);
    if (bounded.truncated) truncations.inc({ what: "event_data" });
    return redact(bounded.data);
  };

  // Formatting a date costs more than the rest of an event; events in the same millisecond share it.
  let lastMillisecond = Number.NaN;
  let lastTimestamp = "";
  const timestamp = (millisecond: number): string => {
    if (millisecond !== lastMillisecond) {
      lastMillisecond = millisecond;
      lastTimestamp = new Date(millisecond).toISOString();
    }
    return lastTimestamp;
  };

  const build = (input: EventInput, millisecond: number): TelemetryEvent => {
    // Built by assignment (not spreads) and redacted field by field.
    const event: { -readonly [K in keyof TelemetryEvent]: TelemetryEvent[K] } = {
      timestamp: input.timestamp ?? timestamp(millisecond),
      trace_id: input.trace_id ?? ids.traceId(),
      status: input.status ?? "success",
      event_type: field(input.event_type),
      source: input.source === undefined ? source : field(input.source),
      data: input.data === undefined ? {} : boundedData(input.data),
    };
    if (input.span_id !== undefined) event.span_id = input.span_id;
    if (input.parent_span_id !== undefined) event.parent_span_id = input.parent_span_id;
    if (input.backend !== undefined) event.backend = field(input.backend);
    if (input.method !== undefined) event.method = field(input.method);
    if (input.tool !== undefined) event.tool = field(input.tool);
    if (input.duration_ms !== undefined) event.duration_ms = input.duration_ms;
    return event;
  };
  return { build, field };
}
