import { parseDuration } from "./duration.js";
import { EVENT_STATUSES, type EventStatus, type TelemetryEvent } from "./event.js";
import { TelemetryError } from "./telemetry-error.js";

/** Default number of events a query returns. */
export const DEFAULT_QUERY_LIMIT = 100;
/** Largest `limit` a query accepts. */
export const MAX_QUERY_LIMIT = 10_000;

/**
 * A query over stored events, as the gateway's `get_events` tool receives it. Every field is
 * optional; given fields must all match. Results are the most recent first.
 */
export interface EventQuery {
  /** Exact trace id (32 lowercase hex digits). */
  readonly trace_id?: string;
  /** Exact event type, or a prefix ending in `.*` (`backend.*`), or `*` for all. */
  readonly event_type?: string;
  /** Exact status. */
  readonly status?: EventStatus;
  /** Only events at or after this time: ISO 8601 timestamp, or a duration back from now (`5m`, `30s`, `2h`). */
  readonly since?: string;
  /** Exact backend name. */
  readonly backend?: string;
  /** Most events to return (default 100, at most 10000). */
  readonly limit?: number;
}

/** A validated query turned into a predicate plus a limit. */
export interface CompiledEventQuery {
  /** True when the event matches every filter. */
  readonly matches: (event: TelemetryEvent) => boolean;
  /** Most events to return. */
  readonly limit: number;
}

/**
 * JSON Schema (draft 2020-12) of {@link EventQuery}, ready to be the `inputSchema` of the gateway's
 * `get_events` tool. `compileEventQuery` enforces the same rules and more (it is the authority).
 */
export const EVENT_QUERY_JSON_SCHEMA = {
  type: "object",
  properties: {
    trace_id: {
      type: "string",
      pattern: "^[0-9a-f]{32}$",
      description: "Only events of this W3C trace id (32 lowercase hex digits).",
    },
    event_type: {
      type: "string",
      description: "An event type (tool.called), a prefix ending in .* (backend.*), or * for all.",
    },
    status: {
      type: "string",
      enum: ["success", "failure", "pending"],
      description: "Only events with this status.",
    },
    since: {
      type: "string",
      description:
        "Only events at or after this time: ISO 8601 with a zone (2026-01-31T12:00:00Z), or a duration back from now (30s, 5m, 2h, 1d).",
    },
    backend: { type: "string", description: "Only events concerning this backend." },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: 10_000,
      default: 100,
      description: "Most events to return, most recent first.",
    },
  },
  additionalProperties: false,
} as const;

const knownFields = new Set(Object.keys(EVENT_QUERY_JSON_SCHEMA.properties));
const traceIdPattern = /^[0-9a-f]{32}$/;
const eventTypePattern = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?$/;
// ISO 8601 date-time with a time zone (Z or offset), as RFC 3339 profiles it.
const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function invalid(message: string): TelemetryError {
  return new TelemetryError("INVALID_QUERY", `invalid event query: ${message}`);
}

function readString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw invalid(`${field} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseSince(since: string, now: number): number {
  if (isoPattern.test(since)) {
    const time = Date.parse(since);
    if (!Number.isNaN(time)) return time;
  }
  const duration = parseDuration(since);
  if (duration !== undefined) return now - duration;
  throw invalid(
    `since must be an ISO 8601 time with a zone (2026-01-31T12:00:00Z) or a duration such as 30s, 5m, 2h, 1d; got ${JSON.stringify(since)}`,
  );
}

/**
 * Validates a query (from untrusted input such as tool arguments) and compiles it. Throws a
 * {@link TelemetryError} with code `INVALID_QUERY` naming the offending field. `now` is the clock
 * reading that relative `since` values count back from.
 */
export function compileEventQuery(input: unknown, now: number): CompiledEventQuery {
  if (input === undefined || input === null) input = {};
  if (typeof input !== "object" || Array.isArray(input)) throw invalid("expected an object");
  const query = input as Record<string, unknown>;
  for (const field of Object.keys(query)) {
    if (!knownFields.has(field)) {
      throw invalid(
        `unknown field ${JSON.stringify(field)}; known: ${[...knownFields].join(", ")}`,
      );
    }
  }

  const traceId = readString(query, "trace_id");
  if (traceId !== undefined && !traceIdPattern.test(traceId)) {
    throw invalid("trace_id must be 32 lowercase hex digits");
  }
  const eventType = readString(query, "event_type");
  if (eventType !== undefined && eventType !== "*" && !eventTypePattern.test(eventType)) {
    throw invalid(
      `event_type must be a dotted name (tool.called) or a prefix (backend.*), got ${JSON.stringify(eventType)}`,
    );
  }
  const status = readString(query, "status");
  if (status !== undefined && !(EVENT_STATUSES as readonly string[]).includes(status)) {
    throw invalid(
      `status must be one of ${EVENT_STATUSES.join(", ")}, got ${JSON.stringify(status)}`,
    );
  }
  const since = readString(query, "since");
  const sinceTime = since === undefined ? undefined : parseSince(since, now);
  const backend = readString(query, "backend");
  const limit = query.limit ?? DEFAULT_QUERY_LIMIT;
  if (
    typeof limit !== "number" ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > MAX_QUERY_LIMIT
  ) {
    throw invalid(
      `limit must be an integer from 1 to ${MAX_QUERY_LIMIT}, got ${JSON.stringify(limit)}`,
    );
  }

  let typeMatches: (type: string) => boolean = () => true;
  if (eventType !== undefined && eventType !== "*") {
    if (eventType.endsWith(".*")) {
      const prefix = eventType.slice(0, -1);
      typeMatches = (type) => type.startsWith(prefix);
    } else {
      typeMatches = (type) => type === eventType;
    }
  }

  return {
    limit,
    matches: (event) =>
      (traceId === undefined || event.trace_id === traceId) &&
      typeMatches(event.event_type) &&
      (status === undefined || event.status === status) &&
      (backend === undefined || event.backend === backend) &&
      (sinceTime === undefined || Date.parse(event.timestamp) >= sinceTime),
  };
}
