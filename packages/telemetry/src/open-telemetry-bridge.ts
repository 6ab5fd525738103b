import type { TraceContext } from "./trace-context.js";

// Structural slices of `@opentelemetry/api`, so this package needs the API neither at run time nor
// in its type declarations. The real module satisfies them.

/** The slice of an OpenTelemetry `SpanContext` the bridge reads and writes. */
export interface OpenTelemetrySpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: unknown;
}

/** The slice of an OpenTelemetry `Span` the bridge uses. */
export interface OpenTelemetrySpan {
  spanContext(): OpenTelemetrySpanContext;
  isRecording(): boolean;
  setStatus(status: { code: number; message?: string }): unknown;
  setAttribute(key: string, value: string | number | boolean): unknown;
  end(): void;
}

/** The slice of an OpenTelemetry `Tracer` the bridge uses. */
export interface OpenTelemetryTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
    context?: unknown,
  ): OpenTelemetrySpan;
}

/** The slice of an OpenTelemetry `TracerProvider` the bridge uses. */
export interface OpenTelemetryTracerProvider {
  getTracer(name: string, version?: string): OpenTelemetryTracer;
}

/** The slice of an OpenTelemetry `Histogram` the bridge uses. */
export interface OpenTelemetryHistogram {
  record(value: number, attributes?: Record<string, string | number | boolean>): void;
}

/** The slice of an OpenTelemetry `MeterProvider` the bridge uses. */
export interface OpenTelemetryMeterProvider {
  getMeter(
    name: string,
    version?: string,
  ): {
    createHistogram(
      name: string,
      options?: {
        description?: string;
        unit?: string;
        advice?: { explicitBucketBoundaries?: number[] };
      },
    ): OpenTelemetryHistogram;
  };
}

/** The slice of the `@opentelemetry/api` module the bridge uses. */
export interface OpenTelemetryApi {
  readonly trace: {
    getTracerProvider(): OpenTelemetryTracerProvider;
    setSpanContext(context: unknown, spanContext: OpenTelemetrySpanContext): unknown;
  };
  readonly ROOT_CONTEXT: unknown;
  readonly createTraceState?: (rawTraceState?: string) => { serialize(): string };
}

/** What the bridge needs to start a span for one request. */
export interface SpanRequest {
  /** Span name (the JSON-RPC method, plus the tool name for `tools/call`). */
  readonly name: string;
  /** `server` for a request this side answers, `client` for one it sends. */
  readonly kind: "server" | "client";
  /** The caller's context (incoming) or this hop's context (outgoing), when there is one. */
  readonly parent: TraceContext | undefined;
  /** Span attributes (already redacted). */
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
}

/** How a request ended, as the MCP conventions record it on its span and duration metric. */
export interface SpanOutcome {
  /** `error.type`: the JSON-RPC error code, `tool_error`, `timeout`, … (absent on success). */
  readonly errorType?: string;
  /** `rpc.response.status_code`: the JSON-RPC error code of the response, when it had one. */
  readonly statusCode?: string;
  /** The request's duration, recorded in `mcp.server.operation.duration` or `mcp.client.…`. */
  readonly durationSeconds?: number;
}

/** An OpenTelemetry span in progress. */
export interface BridgedSpan {
  /** The span's own context: its span id is what the next hop sees as parent. */
  readonly context: TraceContext;
  /**
   * Ends the span, with an error status when `error` is given; `outcome` adds the error attributes
   * and records the duration metric when the bridge has a meter.
   */
  end(error?: string, outcome?: SpanOutcome): void;
}

/** Emits one OpenTelemetry span per request when an SDK is there; costs one check when none is. */
export interface OpenTelemetryBridge {
  /** True when an SDK is there to receive spans; callers skip building a {@link SpanRequest} otherwise. */
  isActive(): boolean;
  /** Starts a span, or returns `undefined` when no SDK records spans. */
  startSpan(request: SpanRequest): BridgedSpan | undefined;
  /**
   * Exports what is buffered and stops, for a bridge that owns its SDK (`startOtlpExporter`'s);
   * `Telemetry.close` calls it.
   */
  shutdown?(): Promise<void>;
}

/** Options of {@link createOpenTelemetryBridge}. */
export interface OpenTelemetryBridgeOptions {
  /** The `@opentelemetry/api` module (for example `await import("@opentelemetry/api")`). */
  readonly api: OpenTelemetryApi;
  /** A provider to use instead of the globally registered one. */
  readonly tracerProvider?: OpenTelemetryTracerProvider;
  /** Tracer name (default `@patchbay/telemetry`). */
  readonly tracerName?: string;
  /**
   * Where `mcp.server.operation.duration` and `mcp.client.operation.duration` go (default: no
   * metrics). Given only with `tracerProvider`.
   */
  readonly meterProvider?: OpenTelemetryMeterProvider;
}

/** A bridge that never emits a span. */
export const NOOP_OPEN_TELEMETRY_BRIDGE: OpenTelemetryBridge = {
  isActive: () => false,
  startSpan: () => undefined,
};

// SpanKind and SpanStatusCode values of the OpenTelemetry API (stable since 1.0).
const spanKind = { server: 1, client: 2 } as const;
const statusError = 2;

interface DelegatingProvider extends OpenTelemetryTracerProvider {
  getDelegateTracer(name: string): OpenTelemetryTracer | undefined;
}

function isDelegating(provider: OpenTelemetryTracerProvider): provider is DelegatingProvider {
  return typeof (provider as Partial<DelegatingProvider>).getDelegateTracer === "function";
}

/**
 * Creates a bridge over the given API module. Without `tracerProvider` it follows the global
 * provider: until an SDK registers one (`trace.setGlobalTracerProvider`), `startSpan` returns
 * `undefined` after one cheap check, and no span object is made.
 */
export function createOpenTelemetryBridge(
  options: OpenTelemetryBridgeOptions,
): OpenTelemetryBridge {
  const { api } = options;
  const tracerName = options.tracerName ?? "@patchbay/telemetry";
  let tracer = options.tracerProvider?.getTracer(tracerName);
  const durations =
    options.meterProvider === undefined
      ? undefined
      : createOperationDurations(options.meterProvider, tracerName);

  const resolveTracer = (): OpenTelemetryTracer | undefined => {
    const provider = api.trace.getTracerProvider();
    // The API's proxy provider has no delegate until an SDK registers: the no-op path.
    if (isDelegating(provider) && provider.getDelegateTracer(tracerName) === undefined)
      return undefined;
    tracer = provider.getTracer(tracerName);
    return tracer;
  };

  return {
    isActive: () => (tracer ?? resolveTracer()) !== undefined,
    startSpan(request) {
      const active = tracer ?? resolveTracer();
      if (active === undefined) return undefined;
      let parentContext = api.ROOT_CONTEXT;
      const { parent } = request;
      if (parent !== undefined) {
        const traceState =
          parent.traceState === undefined ? undefined : api.createTraceState?.(parent.traceState);
        parentContext = api.trace.setSpanContext(api.ROOT_CONTEXT, {
          traceId: parent.traceId,
          spanId: parent.spanId,
          traceFlags: parent.traceFlags,
          isRemote: request.kind === "server",
          ...(traceState === undefined ? {} : { traceState }),
        });
      }
      const span = active.startSpan(
        request.name,
        { kind: spanKind[request.kind], attributes: { ...request.attributes } },
        parentContext,
      );
      const metricAttributes =
        durations === undefined ? undefined : operationAttributes(request.attributes);
      const histogram = durations?.[request.kind];
      const spanContext = span.spanContext();
      const context: TraceContext = {
        traceId: spanContext.traceId,
        spanId: spanContext.spanId,
        traceFlags: spanContext.traceFlags,
        ...(parent?.traceState === undefined ? {} : { traceState: parent.traceState }),
      };
      return {
        context,
        end(error, outcome) {
          if (outcome?.errorType !== undefined) {
            span.setAttribute("error.type", outcome.errorType);
            if (metricAttributes !== undefined) metricAttributes["error.type"] = outcome.errorType;
          }
          if (outcome?.statusCode !== undefined) {
            span.setAttribute("rpc.response.status_code", outcome.statusCode);
            if (metricAttributes !== undefined)
              metricAttributes["rpc.response.status_code"] = outcome.statusCode;
          }
          if (error !== undefined) span.setStatus({ code: statusError, message: error });
          span.end();
          if (histogram !== undefined && outcome?.durationSeconds !== undefined)
            histogram.record(outcome.durationSeconds, metricAttributes);
        },
      };
    },
  };
}

/** Bucket boundaries the MCP conventions advise for the operation durations, in seconds. */
const durationBuckets = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The MCP conventions' duration histograms, by span kind (server: answered; client: sent). */
function createOperationDurations(
  provider: OpenTelemetryMeterProvider,
  meterName: string,
): Record<SpanRequest["kind"], OpenTelemetryHistogram> {
  const meter = provider.getMeter(meterName);
  const advice = { explicitBucketBoundaries: durationBuckets };
  return {
    server: meter.createHistogram("mcp.server.operation.duration", {
      description:
        "MCP request or notification duration as observed on the receiver, until the result is sent.",
      unit: "s",
      advice,
    }),
    client: meter.createHistogram("mcp.client.operation.duration", {
      description: "MCP request duration as observed on the sender, until the response arrives.",
      unit: "s",
      advice,
    }),
  };
}

/** Span attributes the duration metrics carry too (not the per-request ones: ids, sessions). */
const metricAttributeNames = [
  "mcp.method.name",
  "gen_ai.tool.name",
  "gen_ai.prompt.name",
  "gen_ai.operation.name",
  "mcp.protocol.version",
  "jsonrpc.protocol.version",
  "network.transport",
] as const;

function operationAttributes(
  attributes: Readonly<Record<string, string | number | boolean>>,
): Record<string, string | number | boolean> {
  const chosen: Record<string, string | number | boolean> = {};
  for (const name of metricAttributeNames) {
    const value = attributes[name];
    if (value !== undefined) chosen[name] = value;
  }
  return chosen;
}

/**
 * Loads `@opentelemetry/api` (an optional peer dependency) with a dynamic import and creates a
 * bridge over it; resolves to the no-op bridge when the API is not installed.
 */
export async function loadOpenTelemetryBridge(
  options: Omit<OpenTelemetryBridgeOptions, "api"> = {},
): Promise<OpenTelemetryBridge> {
  let api: OpenTelemetryApi;
  try {
    api = (await import("@opentelemetry/api")) as unknown as OpenTelemetryApi;
  } catch {
    return NOOP_OPEN_TELEMETRY_BRIDGE;
  }
  return createOpenTelemetryBridge({ ...options, api });
}
