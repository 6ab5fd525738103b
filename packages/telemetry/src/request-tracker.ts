import { MAX_EVENT_FIELD_LENGTH, truncateText } from "./bounded-text.js";
import type { EventInput, EventStatus, TelemetryEvent } from "./event.js";
import { EventTypes } from "./event-types.js";
import { type LazyEvent, lazyEventMark } from "./lazy-event.js";
import { type BridgedSpan, NOOP_OPEN_TELEMETRY_BRIDGE } from "./open-telemetry-bridge.js";
import { type RequestSite, requestSiteOf } from "./request-series.js";
import type { Telemetry } from "./telemetry.js";
import type { RequestDirection, RequestOutcome } from "./telemetry-metrics.js";
import {
  keepOnTrace,
  keptOnTrace,
  type RequestTrace,
  readTraceContext,
  startRequestTrace,
  type TraceContext,
} from "./trace-context.js";

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
  /** The client session it came on, recorded as `data.session` of its events. */
  readonly session?: string;
  /**
   * True for the tool names metrics may label a `tools/call` with; any other name is counted under
   * {@link UNKNOWN_TOOL_LABEL}, so made-up names cannot fill the label sets. Default: every name.
   */
  readonly knownTool?: (name: string) => boolean;
  /**
   * The MCP revision the connection agreed on, read when a span starts (`mcp.protocol.version`);
   * set only when spans are recorded.
   */
  readonly protocolVersion?: () => string | undefined;
  /** `network.transport` of spans: `pipe` for stdio, `tcp` for HTTP and WebSocket. */
  readonly networkTransport?: string;
  /** `mcp.session.id` of spans: the transport's session (`Mcp-Session-Id`); default `session`. */
  readonly mcpSessionId?: string;
}

/** The `tool` label of a `tools/call` whose name `knownTool` does not know. */
export const UNKNOWN_TOOL_LABEL = "__unknown__";

/** Copies the fields only spans read (protocol version, network transport) into a request's start. */
export function addSpanFields(
  start: { -readonly [K in keyof RequestStart]: RequestStart[K] },
  fields: Pick<RequestStart, "protocolVersion" | "networkTransport" | "mcpSessionId">,
): void {
  if (fields.protocolVersion !== undefined) start.protocolVersion = fields.protocolVersion;
  if (fields.networkTransport !== undefined) start.networkTransport = fields.networkTransport;
  if (fields.mcpSessionId !== undefined) start.mcpSessionId = fields.mcpSessionId;
}

/** How a request ended. */
export interface RequestEnd {
  /** The outcome label. */
  readonly outcome: RequestOutcome;
  /** The error, for every outcome but `success`. */
  readonly error?: { readonly code?: number | string; readonly message: string };
}

/**
 * A few fields of the event that closed a request, read from its tracker without building the
 * event. They are not redacted: for counters and lookups (rates, a session's last activity), never
 * to be shown or logged; what is shown comes from the built event.
 */
export interface RequestEndFields {
  readonly direction: RequestDirection;
  /** The client session it came on (`data.session` of its events). */
  readonly session: string | undefined;
  /** True when the request was recorded with a backend (`backend` of its events). */
  readonly hasBackend: boolean;
  readonly outcome: RequestOutcome;
  readonly traceId: string;
}

/** A request being timed: its trace, and `end` to record how it finished. */
export interface RequestTracker {
  /** This hop's span of the request; inject it into a forwarded request's `_meta`. */
  readonly trace: RequestTrace;
  /** Records completion: metrics, the closing event and the span. Later calls do nothing. */
  end(result: RequestEnd): void;
}

/**
 * Request events are many and rarely read: recorded lazily where the telemetry can (the tracker is
 * what they are built from), else deferred, else at once. Trackers call `recordLazily` directly
 * when it is there; this is the fallback for a telemetry without it.
 */
function recordWithout(
  telemetry: Telemetry,
  describe: (tracker: Tracker) => EventInput,
  tracker: Tracker,
): void {
  if (telemetry.recordDeferred !== undefined) telemetry.recordDeferred(describe(tracker));
  else telemetry.record(describe(tracker));
}

function bounded(telemetry: Telemetry, text: string): string {
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

/**
 * {@link trackRequest} at a known site (the decorators keep theirs). An outgoing request whose
 * params were handed off (`handOffTrace`) with the trace of a call this telemetry is tracking, and
 * that has not ended nor been forwarded yet, is that call's forwarded leg: it gets its own span
 * (the peer continues it) and its site's metrics, and the call's closing event names it; it records
 * no events of its own, so one call is one tracker's two events however many hops it crosses.
 */
export function startTracking(
  telemetry: Telemetry,
  start: RequestStart,
  site: RequestSite,
): RequestTracker {
  const { direction, params } = start;
  // Both come from peers and live as long as the request (and in spans): keep them bounded.
  const method =
    start.method.length <= MAX_EVENT_FIELD_LENGTH ? start.method : bounded(telemetry, start.method);
  let tool: string | undefined;
  if (start.method === toolCallMethod && params !== null && typeof params === "object") {
    const name = (params as { name?: unknown }).name;
    if (typeof name === "string")
      tool = name.length <= MAX_EVENT_FIELD_LENGTH ? name : bounded(telemetry, name);
  }
  const parent = readTraceContext(params);
  // Counted here, not through a call: the in-flight gauge is set from it before each render.
  site.started += 1;
  if (!site.pulled) site.inFlight.inc();
  if (direction === "outgoing") {
    // The call tracking the parent trace, if any (kept with it below; `keptOnTrace` inline).
    const call =
      parent === undefined
        ? undefined
        : ((keptOnTrace(parent) ?? (parent as { [callKey]?: Tracker })[callKey]) as
            | Tracker
            | undefined);
    const leg = call?.forward(telemetry, start, site, method, tool, parent);
    if (leg !== undefined) return leg;
  }
  const span =
    telemetry.openTelemetry === NOOP_OPEN_TELEMETRY_BRIDGE
      ? undefined
      : spanOf(telemetry, start, method, tool, parent);
  const trace =
    span === undefined ? startRequestTrace(parent, telemetry.ids) : spanTrace(span, parent);
  const tracker = new Tracker(telemetry, start, site, method, tool, trace, span);
  if (!keepOnTrace(trace, tracker)) Object.defineProperty(trace, callKey, { value: tracker });
  const opening = direction === "incoming" ? EventTypes.requestReceived : EventTypes.requestSent;
  if (telemetry.recordLazily !== undefined) telemetry.recordLazily(opening, describeStart, tracker);
  else recordWithout(telemetry, describeStart, tracker);
  return tracker;
}

/** Where a call's trace keeps its tracker (not enumerable: spreads and JSON leave it out). */
const callKey = Symbol("patchbay.call");

/** MCP's method for a prompt: its `params.name` becomes `gen_ai.prompt.name`. */
const promptGetMethod = "prompts/get";
/** MCP's methods naming a resource: their `params.uri` becomes `mcp.resource.uri`. */
const resourceMethods = new Set(["resources/read", "resources/subscribe", "resources/unsubscribe"]);

/** A string param of a request (`name`, `uri`), bounded, or `undefined`. */
function stringParam(telemetry: Telemetry, params: unknown, key: string): string | undefined {
  if (params === null || typeof params !== "object") return undefined;
  const value = (params as Record<string, unknown>)[key];
  if (typeof value !== "string") return undefined;
  return value.length <= MAX_EVENT_FIELD_LENGTH ? value : bounded(telemetry, value);
}

/**
 * The attributes the OpenTelemetry MCP semantic conventions give a request's span (redacted), and
 * the span name `{mcp.method.name} {target}`, target being the tool or prompt name when there is one.
 */
function mcpSpanShape(
  telemetry: Telemetry,
  start: RequestStart,
  method: string,
  tool: string | undefined,
): { name: string; attributes: Record<string, string | number | boolean> } {
  const attributes: Record<string, string | number | boolean> = {
    "mcp.method.name": method,
    "jsonrpc.protocol.version": "2.0",
  };
  let target: string | undefined;
  if (tool !== undefined) {
    target = telemetry.redact(tool);
    attributes["gen_ai.tool.name"] = target;
    attributes["gen_ai.operation.name"] = "execute_tool";
  } else if (method === promptGetMethod) {
    const prompt = stringParam(telemetry, start.params, "name");
    if (prompt !== undefined) {
      target = telemetry.redact(prompt);
      attributes["gen_ai.prompt.name"] = target;
    }
  } else if (resourceMethods.has(method)) {
    const uri = stringParam(telemetry, start.params, "uri");
    if (uri !== undefined) attributes["mcp.resource.uri"] = telemetry.redact(uri);
  }
  if (start.id !== undefined) attributes["jsonrpc.request.id"] = String(start.id);
  const sessionId = start.mcpSessionId ?? start.session;
  if (sessionId !== undefined) attributes["mcp.session.id"] = sessionId;
  const protocolVersion = start.protocolVersion?.();
  if (protocolVersion !== undefined) attributes["mcp.protocol.version"] = protocolVersion;
  if (start.networkTransport !== undefined)
    attributes["network.transport"] = start.networkTransport;
  if (start.backend !== undefined) attributes["patchbay.backend"] = start.backend;
  return { name: target === undefined ? method : `${method} ${target}`, attributes };
}

/**
 * The request's OpenTelemetry span, when an SDK listens (the no-op path allocates nothing; callers
 * skip the call for the no-op bridge, which never listens).
 */
function spanOf(
  telemetry: Telemetry,
  start: RequestStart,
  method: string,
  tool: string | undefined,
  parent: TraceContext | undefined,
): BridgedSpan | undefined {
  const bridge = telemetry.openTelemetry;
  if (!bridge.isActive()) return undefined;
  const { name, attributes } = mcpSpanShape(telemetry, start, method, tool);
  return bridge.startSpan({
    name,
    kind: start.direction === "incoming" ? "server" : "client",
    parent,
    attributes,
  });
}

/** Ends a request's span: error status and attributes as the MCP conventions say, and its duration. */
function endSpan(span: BridgedSpan, result: RequestEnd, durationMs: number): void {
  const { error } = result;
  if (error === undefined) {
    span.end(undefined, { durationSeconds: durationMs / 1000 });
    return;
  }
  const wireCode = typeof error.code === "number" ? String(error.code) : undefined;
  span.end(error.message, {
    errorType: wireCode ?? result.outcome,
    ...(wireCode === undefined ? {} : { statusCode: wireCode }),
    durationSeconds: durationMs / 1000,
  });
}

/** The trace of a request whose span the SDK started. */
function spanTrace(span: BridgedSpan, parent: TraceContext | undefined): RequestTrace {
  return { ...span.context, ...(parent === undefined ? {} : { parentSpanId: parent.spanId }) };
}

/** A call's forwarded leg (see {@link startTracking}): a span and metrics, no events. */
class ForwardedLeg implements RequestTracker {
  readonly trace: RequestTrace;
  /** The backend it went to (read by the call when it ends, as are the two below). */
  readonly backend: string | undefined;
  /** How it ended, once it has. */
  outcome: RequestOutcome | undefined;
  /** How long it took, once it ended. */
  durationMs: number | undefined;
  readonly #telemetry: Telemetry;
  readonly #site: RequestSite;
  readonly #method: string;
  readonly #tool: string | undefined;
  #span: BridgedSpan | undefined;
  readonly #started: number;

  constructor(
    telemetry: Telemetry,
    site: RequestSite,
    backend: string | undefined,
    method: string,
    tool: string | undefined,
    trace: RequestTrace,
    span: BridgedSpan | undefined,
  ) {
    this.#telemetry = telemetry;
    this.#site = site;
    this.backend = backend;
    this.#method = method;
    this.#tool = tool;
    this.trace = trace;
    this.#span = span;
    this.#started = telemetry.monotonicNow();
  }

  end(result: RequestEnd): void {
    if (this.outcome !== undefined) return;
    const durationMs = this.#telemetry.monotonicNow() - this.#started;
    this.outcome = result.outcome;
    this.durationMs = durationMs;
    this.#site.end(this.#method, this.#tool, result.outcome, durationMs / 1000);
    if (this.#span !== undefined) endSpan(this.#span, result, durationMs);
    this.#span = undefined;
  }
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
  readonly #session: string | undefined;
  readonly #backend: string | undefined;
  readonly #site: RequestSite;
  readonly #method: string;
  readonly #tool: string | undefined;
  #knownTool: ((name: string) => boolean) | undefined;
  #span: BridgedSpan | undefined;
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
    this.#session = start.session;
    this.#backend = start.backend;
    this.#site = site;
    this.#method = method;
    this.#tool = tool;
    this.#knownTool = start.knownTool;
    this.trace = trace;
    this.#span = span;
    this.#started = telemetry.monotonicNow();
  }

  /**
   * The `tool` label of its metrics, asked when it ends (the catalogue may have grown since). A call
   * forwarded on its trace was routed by name to a backend that listed it: known, not asked again.
   */
  #toolLabel(): string | undefined {
    const tool = this.#tool;
    if (tool === undefined || this.#forwarded || this.#knownTool === undefined) return tool;
    return this.#knownTool(tool) ? tool : UNKNOWN_TOOL_LABEL;
  }

  /** How it ended (set by `end`; read only by the closing event, which `end` records). */
  #result: RequestEnd | undefined;
  #durationMs = 0;
  #leg: ForwardedLeg | undefined;
  /** The leg as it stood when the call ended (what the closing event shows). */
  #legBackend: string | undefined;
  #legOutcome: RequestOutcome | undefined;
  #legDurationMs: number | undefined;
  #forwarded = false;
  /** The closing event's type (set by `end`). */
  #closingType = "";

  /**
   * This call's forwarded leg for a request `telemetry` sends on its trace (already counted in
   * `site.started`), or `undefined` when the request is not one (another telemetry's, or the call
   * ended or was forwarded already).
   */
  forward(
    telemetry: Telemetry,
    start: RequestStart,
    site: RequestSite,
    method: string,
    tool: string | undefined,
    parent: TraceContext | undefined,
  ): ForwardedLeg | undefined {
    if (telemetry !== this.#telemetry || this.#ended || this.#leg !== undefined) return undefined;
    const span =
      telemetry.openTelemetry === NOOP_OPEN_TELEMETRY_BRIDGE
        ? undefined
        : spanOf(telemetry, start, method, tool, parent);
    const trace =
      span === undefined ? startRequestTrace(parent, telemetry.ids) : spanTrace(span, parent);
    this.#leg = new ForwardedLeg(telemetry, site, start.backend, method, tool, trace, span);
    return this.#leg;
  }

  // Built by assignment, not spreads; only when the event is read (see `describeStart`).
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
    if (this.#session !== undefined) data.session = this.#session;
    return data;
  }

  /** The opening event's input (`request.received` or `request.sent`, pending). */
  startInput(): EventInput {
    return this.event(
      this.#direction === "incoming" ? EventTypes.requestReceived : EventTypes.requestSent,
      "pending",
      this.baseData(),
    );
  }

  /** The closing event's input (after `end`). */
  endInput(): EventInput {
    const result = this.#result as RequestEnd;
    const status: EventStatus = result.outcome === "success" ? "success" : "failure";
    const data = this.baseData();
    data.outcome = result.outcome;
    if (result.error !== undefined) data.error = result.error;
    if (this.#forwarded) {
      if (this.#legBackend !== undefined) data.backend = this.#legBackend;
      if (this.#legOutcome !== undefined) data.backend_outcome = this.#legOutcome;
      if (this.#legDurationMs !== undefined) data.backend_duration_ms = this.#legDurationMs;
    }
    const closing = this.event(this.#closingType, status, data);
    closing.duration_ms = this.#durationMs;
    return closing;
  }

  /** See {@link requestEndOf} (after `end`). */
  endFields(): RequestEndFields {
    return {
      direction: this.#direction,
      session: this.#session,
      hasBackend: this.#backend !== undefined,
      outcome: (this.#result as RequestEnd).outcome,
      traceId: this.trace.traceId,
    };
  }

  end(result: RequestEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    const telemetry = this.#telemetry;
    const durationMs = telemetry.monotonicNow() - this.#started;
    this.#result = result;
    this.#durationMs = durationMs;
    if (this.#leg !== undefined) {
      const leg = this.#leg;
      this.#forwarded = true;
      this.#legBackend = leg.backend;
      this.#legOutcome = leg.outcome;
      this.#legDurationMs = leg.durationMs;
      this.#leg = undefined;
    }
    this.#site.end(this.#method, this.#toolLabel(), result.outcome, durationMs / 1000);
    const outcome = result.outcome;
    const closing =
      outcome === "timeout"
        ? EventTypes.requestTimeout
        : outcome === "cancelled"
          ? EventTypes.requestCancelled
          : this.#tool === undefined
            ? EventTypes.requestCompleted
            : EventTypes.toolCalled;
    this.#closingType = closing;
    if (telemetry.recordLazily !== undefined) telemetry.recordLazily(closing, describeEnd, this);
    else recordWithout(telemetry, describeEnd, this);
    if (this.#span !== undefined) endSpan(this.#span, result, durationMs);
    // The stored events keep the tracker until the ring evicts them: the span and the catalogue
    // check (which holds its session's catalogue) are done with.
    this.#span = undefined;
    this.#knownTool = undefined;
  }
}

// One function each for every tracker: recording passes the tracker, not a closure over it.
const describeStart = (tracker: Tracker): EventInput => tracker.startInput();
const describeEnd = (tracker: Tracker): EventInput => tracker.endInput();

/**
 * The fields of a request's closing event that a sink may count by without building the event, for
 * a closing event recorded by a request tracker and not built yet; `undefined` for any other event
 * (build it with `builtEvent` and read the event).
 */
export function requestEndOf(event: TelemetryEvent | LazyEvent): RequestEndFields | undefined {
  if (!(lazyEventMark in event) || event.first !== describeEnd) return undefined;
  const tracker = event.second;
  return tracker instanceof Tracker ? tracker.endFields() : undefined;
}
