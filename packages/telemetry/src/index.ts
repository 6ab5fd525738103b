export {
  AUDIT_ARGUMENT_POLICIES,
  type AuditArgumentPolicy,
  canonicalJson,
} from "./audit-arguments.js";
export { createAuditFileSink } from "./audit-file-sink.js";
export {
  type AuditDecision,
  type AuditLog,
  type AuditLogOptions,
  type AuditOutcome,
  type AuditRecord,
  type AuditSink,
  createAuditLog,
  createAuditStreamSink,
} from "./audit-log.js";
export {
  boundEventData,
  MAX_EVENT_DATA_ENTRIES,
  MAX_EVENT_DATA_LENGTH,
  MAX_EVENT_DATA_NODES,
  MAX_EVENT_DATA_STRING_LENGTH,
  MAX_EVENT_FIELD_LENGTH,
  MAX_LABEL_VALUE_LENGTH,
  TRUNCATION_MARK,
  truncateText,
} from "./bounded-text.js";
export { parseDuration } from "./duration.js";
export { EVENT_STATUSES, type EventInput, type EventStatus, type TelemetryEvent } from "./event.js";
export {
  type CompiledEventQuery,
  compileEventQuery,
  DEFAULT_QUERY_LIMIT,
  EVENT_QUERY_JSON_SCHEMA,
  type EventQuery,
  MAX_QUERY_LIMIT,
} from "./event-query.js";
export type { EventSink } from "./event-sink.js";
export { EventTypes, type KnownEventType } from "./event-types.js";
export {
  type InstrumentConnectionOptions,
  instrumentConnection,
  requestTraceOf,
} from "./instrument-connection.js";
export { type InstrumentTransportOptions, instrumentTransport } from "./instrument-transport.js";
export {
  createJsonLinesFile,
  createJsonLinesFileSink,
  type JsonLinesFile,
  type JsonLinesFileSinkOptions,
  type SinkFileSystem,
} from "./json-lines-file-sink.js";
export { type Labels, OVERFLOW_LABEL_VALUE } from "./label-sets.js";
export { builtEvent, isLazyEvent, type LazyEvent } from "./lazy-event.js";
export { createLogSink, formatEventLine } from "./log-sink.js";
export {
  createMemoryEventStore,
  createRingBuffer,
  type MemoryEventStore,
  type MemoryEventStoreOptions,
  type RingBuffer,
} from "./memory-event-store.js";
export {
  type BoundCounter,
  type BoundGauge,
  type BoundHistogram,
  type Counter,
  createMetricRegistry,
  DEFAULT_LATENCY_BUCKETS,
  type Gauge,
  type Histogram,
  type HistogramDefinition,
  type MetricDefinition,
  type MetricRegistry,
  type MetricRegistryOptions,
} from "./metric-registry.js";
export {
  type BridgedSpan,
  createOpenTelemetryBridge,
  loadOpenTelemetryBridge,
  NOOP_OPEN_TELEMETRY_BRIDGE,
  type OpenTelemetryApi,
  type OpenTelemetryBridge,
  type OpenTelemetryBridgeOptions,
  type OpenTelemetryHistogram,
  type OpenTelemetryMeterProvider,
  type OpenTelemetrySpan,
  type OpenTelemetrySpanContext,
  type OpenTelemetryTracer,
  type OpenTelemetryTracerProvider,
  type SpanOutcome,
  type SpanRequest,
} from "./open-telemetry-bridge.js";
export {
  type OtlpExporter,
  type OtlpExporterConfig,
  type OtlpExporterOptions,
  type OtlpPackage,
  OtlpPackagesMissingError,
  type OtlpProtocol,
  otlpPackages,
  startOtlpExporter,
} from "./otlp-exporter.js";
export {
  escapeHelp,
  escapeLabelValue,
  formatSampleValue,
  PROMETHEUS_CONTENT_TYPE,
} from "./prometheus-text.js";
export { createQueuedSink, type QueuedSink, type QueuedSinkOptions } from "./queued-sink.js";
export {
  createRedactor,
  DEFAULT_SECRET_KEYS,
  REDACTED,
  type Redact,
  type Redactor,
  type RedactorOptions,
  redact,
} from "./redact.js";
export { outcomeOfError, outcomeOfResult } from "./request-books.js";
export {
  type RequestEnd,
  type RequestEndFields,
  type RequestStart,
  type RequestTracker,
  requestEndOf,
  trackRequest,
  UNKNOWN_TOOL_LABEL,
} from "./request-tracker.js";
export { createTelemetry, type Telemetry, type TelemetryOptions } from "./telemetry.js";
export { TelemetryError, type TelemetryErrorCode } from "./telemetry-error.js";
export {
  createTelemetryMetrics,
  type RequestDirection,
  type RequestOutcome,
  type TelemetryMetrics,
} from "./telemetry-metrics.js";
export {
  createIdGenerator,
  formatTraceparent,
  formatTracestate,
  type HandOffOptions,
  handOffTrace,
  type IdGenerator,
  injectTraceContext,
  isValidSpanId,
  isValidTraceId,
  MAX_TRACESTATE_MEMBERS,
  parseTraceparent,
  parseTracestate,
  type RandomSource,
  type RequestTrace,
  readTraceContext,
  startRequestTrace,
  TRACE_FLAG_SAMPLED,
  type TraceContext,
  type TraceStateEntry,
  truncateTracestate,
} from "./trace-context.js";
