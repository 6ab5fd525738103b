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

/** An OpenTelemetry span in progress. */
export interface BridgedSpan {
  /** The span's own context: its span id is what the next hop sees as parent. */
  readonly context: TraceContext;
  /** Ends the span, with an error status when `error` is given. */
  end(error?: string): void;
}

/** Emits one OpenTelemetry span per request when an SDK is there; costs one check when none is. */
export interface OpenTelemetryBridge {
  /** True when an SDK is there to receive spans; callers skip building a {@link SpanRequest} otherwise. */
  isActive(): boolean;
  /** Starts a span, or returns `undefined` when no SDK records spans. */
  startSpan(request: SpanRequest): BridgedSpan | undefined;
}

/** Options of {@link createOpenTelemetryBridge}. */
export interface OpenTelemetryBridgeOptions {
  /** The `@opentelemetry/api` module (for example `await import("@opentelemetry/api")`). */
  readonly api: OpenTelemetryApi;
  /** A provider to use instead of the globally registered one. */
  readonly tracerProvider?: OpenTelemetryTracerProvider;
  /** Tracer name (default `@patchbay/telemetry`). */
  readonly tracerName?: string;
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
      const spanContext = span.spanContext();
      const context: TraceContext = {
        traceId: spanContext.traceId,
        spanId: spanContext.spanId,
        traceFlags: spanContext.traceFlags,
        ...(parent?.traceState === undefined ? {} : { traceState: parent.traceState }),
      };
      return {
        context,
        end(error) {
          if (error !== undefined) span.setStatus({ code: statusError, message: error });
          span.end();
        },
      };
    },
  };
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
