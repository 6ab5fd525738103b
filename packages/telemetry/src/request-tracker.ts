import { MAX_EVENT_FIELD_LENGTH, truncateText } from "./bounded-text.js";
import type { EventInput, EventStatus } from "./event.js";
import { EventTypes } from "./event-types.js";
import type { BridgedSpan } from "./open-telemetry-bridge.js";
import { type RequestSite, requestSiteOf } from "./request-series.js";
import type { Telemetry } from "./telemetry.js";
import type { RequestDirection, RequestOutcome } from "./telemetry-metrics.js";
import { type RequestTrace, readTraceContext, startRequestTrace } from "./trace-meta.js";

/** MCP's tool call method: its `params.name` becomes the `tool` of events and metrics. */
const toolCallMethod = "tools/call";

/** What is known about a request when it starts. */
export interface RequestStart {
  /** `incoming`: this side answers it; `outgoing`: this side sent it. */
  readonly direction: RequestDirection;
  /** The JSON-RPC method. */
  readonly method: string;
  /** The request params; `_meta.traceparent` in them sets the parent span. */
  readonly params: unknown;
  /** The JSON-RPC id, recorded in the event data. */
  readonly id?: string | number;
  /** The backend concerned. */
  readonly backend?: string;
  /** Event source (default: the telemetry's). */
  readonly source?: string;
}

/** How a request ended. */
export interface RequestEnd {
  /** The outcome label. */
  readonly outcome: RequestOutcome;
  /** The error, for every outcome but `success`. */
  readonly error?: { readonly code?: number | string; readonly message: string };
}

/** A request being timed: its trace, and `end` to record how it finished. */
export interface RequestTracker {
  /** This hop's span of the request; inject it into a forwarded request's `_meta`. */
  readonly trace: RequestTrace;
  /** Records completion: metrics, the closing event and the span. Later calls do nothing. */
  end(result: RequestEnd): void;
}

function readToolName(method: string, params: unknown): string | undefined {
  if (method !== toolCallMethod || params === null || typeof params !== "object") return undefined;
  const name = (params as { name?: unknown }).name;
  return typeof name === "string" ? name : undefined;
}

function closingEventType(outcome: RequestOutcome, tool: string | undefined): string {
  if (outcome === "timeout") return EventTypes.requestTimeout;
  if (outcome === "cancelled") return EventTypes.requestCancelled;
  return tool === undefined ? EventTypes.requestCompleted : EventTypes.toolCalled;
}

/** Request events are many and rarely read: recorded deferred where the telemetry can. */
function record(telemetry: Telemetry, input: EventInput): void {
  if (telemetry.recordDeferred !== undefined) telemetry.recordDeferred(input);
  else telemetry.record(input);
}

function bounded(telemetry: Telemetry, text: string): string {
  if (text.length <= MAX_EVENT_FIELD_LENGTH) return text;
  telemetry.metrics.truncations.inc({ what: "event_field" });
  return truncateText(text, MAX_EVENT_FIELD_LENGTH);
}

/**
 * Starts tracking one request: picks its trace (continuing `_meta.traceparent` when valid), starts
 * an OpenTelemetry span when an SDK is there, records `request.received` or `request.sent`, and
 * counts it in flight. The decorators call this; a router may too, for requests it answers itself.
 */
export function trackRequest(telemetry: Telemetry, start: RequestStart): RequestTracker {
  return startTracking(
    telemetry,
    start,
    requestSiteOf(telemetry.metrics, start.direction, start.backend),
  );
}

/** {@link trackRequest} at a known site (the decorators keep theirs). */
export function startTracking(
  telemetry: Telemetry,
  start: RequestStart,
  site: RequestSite,
): RequestTracker {
  const { direction, params, backend } = start;
  // Both come from peers and live as long as the request (and in spans): keep them bounded.
  const method = bounded(telemetry, start.method);
  const rawTool = readToolName(start.method, params);
  const tool = rawTool === undefined ? undefined : bounded(telemetry, rawTool);
  const parent = readTraceContext(params);
  let trace: RequestTrace;
  // The span request is built only when an SDK listens: the no-op path allocates nothing for it.
  const span: BridgedSpan | undefined = telemetry.openTelemetry.isActive()
    ? telemetry.openTelemetry.startSpan({
        name: tool === undefined ? method : `${method} ${telemetry.redact(tool)}`,
        kind: direction === "incoming" ? "server" : "client",
        parent,
        attributes: {
          "rpc.system": "jsonrpc",
          "rpc.method": method,
          ...(backend === undefined ? {} : { "patchbay.backend": backend }),
          ...(tool === undefined ? {} : { "patchbay.tool": telemetry.redact(tool) }),
        },
      })
    : undefined;
  if (span === undefined) {
    trace = startRequestTrace(parent, telemetry.ids);
  } else {
    trace = {
      ...span.context,
      ...(parent === undefined ? {} : { parentSpanId: parent.spanId }),
    };
  }
  const tracker = new Tracker(telemetry, start, site, method, tool, trace, span);
  record(
    telemetry,
    tracker.event(
      direction === "incoming" ? EventTypes.requestReceived : EventTypes.requestSent,
      "pending",
      tracker.baseData(),
    ),
  );
  site.inFlight.inc();
  return tracker;
}

type MutableEventInput = { -readonly [K in keyof EventInput]: EventInput[K] };

/** One tracked request (a class: one shape, no closures per request). */
class Tracker implements RequestTracker {
  readonly trace: RequestTrace;
  readonly #telemetry: Telemetry;
  // The fields of the start, not the start: its params may be large and must not be kept.
  readonly #direction: RequestDirection;
  readonly #id: string | number | undefined;
  readonly #source: string | undefined;
  readonly #backend: string | undefined;
  readonly #site: RequestSite;
  readonly #method: string;
  readonly #tool: string | undefined;
  readonly #span: BridgedSpan | undefined;
  readonly #started: number;
  #ended = false;

  constructor(
    telemetry: Telemetry,
    start: RequestStart,
    site: RequestSite,
    method: string,
    tool: string | undefined,
    trace: RequestTrace,
    span: BridgedSpan | undefined,
  ) {
    this.#telemetry = telemetry;
    this.#direction = start.direction;
    this.#id = start.id;
    this.#source = start.source;
    this.#backend = start.backend;
    this.#site = site;
    this.#method = method;
    this.#tool = tool;
    this.trace = trace;
    this.#span = span;
    this.#started = telemetry.monotonicNow();
  }

  // Built by assignment, not spreads: this runs twice per message.
  event(eventType: string, status: EventStatus, data: Record<string, unknown>): MutableEventInput {
    const trace = this.trace;
    const input: MutableEventInput = {
      event_type: eventType,
      status,
      trace_id: trace.traceId,
      span_id: trace.spanId,
      method: this.#method,
      data,
    };
    if (trace.parentSpanId !== undefined) input.parent_span_id = trace.parentSpanId;
    if (this.#source !== undefined) input.source = this.#source;
    if (this.#backend !== undefined) input.backend = this.#backend;
    if (this.#tool !== undefined) input.tool = this.#tool;
    return input;
  }

  baseData(): Record<string, unknown> {
    const data: Record<string, unknown> = { direction: this.#direction };
    if (this.#id !== undefined) data.id = this.#id;
    return data;
  }

  end(result: RequestEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    const telemetry = this.#telemetry;
    const durationMs = telemetry.monotonicNow() - this.#started;
    const site = this.#site;
    site.inFlight.dec();
    const calls = site.calls(this.#method, this.#tool);
    calls.count(result.outcome);
    calls.duration.observe(durationMs / 1000);
    const status: EventStatus = result.outcome === "success" ? "success" : "failure";
    const data = this.baseData();
    data.outcome = result.outcome;
    if (result.error !== undefined) data.error = result.error;
    const closing = this.event(closingEventType(result.outcome, this.#tool), status, data);
    closing.duration_ms = durationMs;
    record(telemetry, closing);
    this.#span?.end(result.error === undefined ? undefined : result.error.message);
  }
}
