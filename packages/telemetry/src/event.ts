/** The outcome recorded on an event: `pending` for something started and not yet finished. */
export type EventStatus = "success" | "failure" | "pending";

/** Every valid {@link EventStatus}, in a fixed order (for validation and documentation). */
export const EVENT_STATUSES: readonly EventStatus[] = ["success", "failure", "pending"];

/**
 * One telemetry event. Field names are snake_case because events are also the result of the
 * gateway's `get_events` tool and a line of the JSON Lines file, where clients read them as is.
 */
export interface TelemetryEvent {
  /** When it happened, ISO 8601 in UTC (`2026-01-31T12:00:00.000Z`). */
  readonly timestamp: string;
  /** W3C trace id: 32 lowercase hex digits, never all zeros. */
  readonly trace_id: string;
  /** The span this event belongs to: 16 lowercase hex digits. */
  readonly span_id?: string;
  /** The caller's span, when the request arrived with a trace context. */
  readonly parent_span_id?: string;
  /** Outcome of what the event describes. */
  readonly status: EventStatus;
  /** A dotted name such as `backend.crashed`; see {@link EventTypes}. */
  readonly event_type: string;
  /** What emitted the event (for example `gateway`, `proxy`, `router`). */
  readonly source: string;
  /** The backend concerned, when there is one. */
  readonly backend?: string;
  /** The JSON-RPC method concerned, when there is one. */
  readonly method?: string;
  /** The tool name of a `tools/call`, when there is one. */
  readonly tool?: string;
  /** How long the operation took, in milliseconds. */
  readonly duration_ms?: number;
  /** Event-specific details; always redacted before it is stored or written. */
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * What a caller hands to `Telemetry.record`: the event without the fields the recorder fills in
 * (`timestamp` from the clock, `trace_id` from a new trace, `status` "success", `source` from the
 * telemetry options, `data` empty) unless given.
 */
export interface EventInput {
  /** A dotted name such as `backend.crashed`; see {@link EventTypes}. */
  readonly event_type: string;
  /** Defaults to the clock's current time. */
  readonly timestamp?: string;
  /** Defaults to a newly started trace. */
  readonly trace_id?: string;
  /** The span this event belongs to. */
  readonly span_id?: string;
  /** The caller's span. */
  readonly parent_span_id?: string;
  /** Defaults to `success`. */
  readonly status?: EventStatus;
  /** Defaults to the telemetry's `source` option. */
  readonly source?: string;
  /** The backend concerned. */
  readonly backend?: string;
  /** The JSON-RPC method concerned. */
  readonly method?: string;
  /** The tool name concerned. */
  readonly tool?: string;
  /** Duration in milliseconds. */
  readonly duration_ms?: number;
  /** Event-specific details (redacted before storage). */
  readonly data?: Readonly<Record<string, unknown>>;
}
