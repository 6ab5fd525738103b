import type { Counter, Gauge, Histogram, MetricRegistry } from "./metric-registry.js";

/**
 * How a request ended, as the `outcome` label says it: a result (`success`), a JSON-RPC error
 * (`error`), a tool result with `isError: true` (`tool_error`), no answer in time (`timeout`),
 * aborted (`cancelled`), or the connection went away first (`closed`).
 */
export type RequestOutcome =
  | "success"
  | "error"
  | "tool_error"
  | "timeout"
  | "cancelled"
  | "closed";

/** Which way a request went relative to the instrumented side. */
export type RequestDirection = "incoming" | "outgoing";

/** The standard Patchbay instruments, declared on a registry by {@link createTelemetryMetrics}. */
export interface TelemetryMetrics {
  /** `patchbay_requests_total{direction,method,backend,tool,outcome}`. */
  readonly requests: Counter;
  /** `patchbay_request_duration_seconds{direction,method,backend,tool}`. */
  readonly requestDuration: Histogram;
  /** `patchbay_requests_in_flight{direction,backend}`. */
  readonly requestsInFlight: Gauge;
  /** `patchbay_backend_restarts_total{backend}`. */
  readonly backendRestarts: Counter;
  /** `patchbay_sessions_active{transport}`. */
  readonly sessionsActive: Gauge;
  /** `patchbay_sessions_total{transport}`. */
  readonly sessions: Counter;
  /** `patchbay_telemetry_events_total{event_type}`: events recorded. */
  readonly events: Counter;
  /** `patchbay_frames_total{direction,backend}`: frames (messages or batches) through a decorated transport. */
  readonly frames: Counter;
  /** `patchbay_notifications_total{direction,method,backend}`: notifications through a decorator. */
  readonly notifications: Counter;
  /**
   * `patchbay_telemetry_truncations_total{what}`: strings cut to their limit, by what they were:
   * `event_field` (event type, source, backend, method, tool), `event_data`, `label_value`.
   */
  readonly truncations: Counter;
}

const registries = new WeakMap<TelemetryMetrics, MetricRegistry>();

/** The registry `metrics` were declared on, for collectors of values counted outside it. */
export function registryOf(metrics: TelemetryMetrics): MetricRegistry | undefined {
  return registries.get(metrics);
}

/** Declares the standard instruments on `registry`. */
export function createTelemetryMetrics(registry: MetricRegistry): TelemetryMetrics {
  const metrics = declareTelemetryMetrics(registry);
  registries.set(metrics, registry);
  return metrics;
}

function declareTelemetryMetrics(registry: MetricRegistry): TelemetryMetrics {
  // Tool, backend and method names can come from clients; direction and outcome cannot, so only
  // the former are folded into __other__ past the cap.
  const unbounded = ["method", "backend", "tool"];
  return {
    requests: registry.counter({
      name: "patchbay_requests_total",
      help: "JSON-RPC requests completed, by direction, method, backend, tool and outcome.",
      labelNames: ["direction", "method", "backend", "tool", "outcome"],
      overflowLabels: unbounded,
    }),
    requestDuration: registry.histogram({
      name: "patchbay_request_duration_seconds",
      help: "Time from request to response, in seconds.",
      labelNames: ["direction", "method", "backend", "tool"],
      overflowLabels: unbounded,
    }),
    requestsInFlight: registry.gauge({
      name: "patchbay_requests_in_flight",
      help: "Requests awaiting their response.",
      labelNames: ["direction", "backend"],
      overflowLabels: ["backend"],
    }),
    backendRestarts: registry.counter({
      name: "patchbay_backend_restarts_total",
      help: "Backends restarted after a crash.",
      labelNames: ["backend"],
    }),
    sessionsActive: registry.gauge({
      name: "patchbay_sessions_active",
      help: "Client sessions open now.",
      labelNames: ["transport"],
    }),
    sessions: registry.counter({
      name: "patchbay_sessions_total",
      help: "Client sessions opened.",
      labelNames: ["transport"],
    }),
    frames: registry.counter({
      name: "patchbay_frames_total",
      help: "Frames (single messages or batches) through instrumented transports.",
      labelNames: ["direction", "backend"],
      overflowLabels: ["backend"],
    }),
    notifications: registry.counter({
      name: "patchbay_notifications_total",
      help: "JSON-RPC notifications through instrumented transports.",
      labelNames: ["direction", "method", "backend"],
      overflowLabels: ["method", "backend"],
    }),
    truncations: registry.counter({
      name: "patchbay_telemetry_truncations_total",
      help: "Strings cut to their length limit in events and metric labels, by what they were.",
      labelNames: ["what"],
    }),
    events: registry.counter({
      name: "patchbay_telemetry_events_total",
      help: "Telemetry events recorded, by event type.",
      labelNames: ["event_type"],
      maxLabelSets: 200,
    }),
  };
}
