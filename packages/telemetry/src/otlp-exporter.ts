import {
  createOpenTelemetryBridge,
  type OpenTelemetryApi,
  type OpenTelemetryBridge,
  type OpenTelemetryMeterProvider,
  type OpenTelemetryTracerProvider,
} from "./open-telemetry-bridge.js";

/** The wire format of OTLP over HTTP. */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** Where and how spans and metrics are exported (a config's `telemetry.otlp`). */
export interface OtlpExporterConfig {
  /** The collector's base URL (`http://127.0.0.1:4318`): `/v1/traces` and `/v1/metrics` are added. */
  readonly endpoint: string;
  /** Headers sent with every export (an API key, say): secrets, never logged. */
  readonly headers?: Readonly<Record<string, string>>;
  /** `service.name` of the exported resource (default: the app's name). */
  readonly serviceName?: string;
  /** Default `http/protobuf`, OTLP's default. */
  readonly protocol?: OtlpProtocol;
}

/** Options of {@link startOtlpExporter}. */
export interface OtlpExporterOptions {
  /** `service.name` when the config names none (default `patchbay`). */
  readonly defaultServiceName?: string;
  /** `service.version` of the exported resource. */
  readonly serviceVersion?: string;
  /** Milliseconds between metric exports (default 60000); shutdown exports what is left anyway. */
  readonly metricIntervalMs?: number;
  /** Loads an OpenTelemetry package (default: a dynamic `import`); for tests. */
  readonly load?: (name: OtlpPackage) => Promise<unknown>;
}

/**
 * A running OTLP export: hand `bridge` to `createTelemetry`, whose `close` shuts it down (exporting
 * what is buffered); or call `shutdown` yourself.
 */
export interface OtlpExporter {
  /** Spans and MCP duration metrics of every request go through it to the exporters. */
  readonly bridge: OpenTelemetryBridge;
  /** Exports what is buffered now. */
  flush(): Promise<void>;
  /** Exports what is buffered and stops exporting (later spans are dropped). */
  shutdown(): Promise<void>;
}

/** Thrown when `telemetry.otlp` is configured but an OpenTelemetry package is not installed. */
export class OtlpPackagesMissingError extends Error {
  override readonly name = "OtlpPackagesMissingError";
}

// Literal specifiers (bundlers see them); loaded only when an exporter is configured.
const loaders = {
  "@opentelemetry/api": () => import("@opentelemetry/api"),
  "@opentelemetry/resources": () => import("@opentelemetry/resources"),
  "@opentelemetry/sdk-trace-base": () => import("@opentelemetry/sdk-trace-base"),
  "@opentelemetry/sdk-metrics": () => import("@opentelemetry/sdk-metrics"),
  "@opentelemetry/exporter-trace-otlp-http": () =>
    import("@opentelemetry/exporter-trace-otlp-http"),
  "@opentelemetry/exporter-trace-otlp-proto": () =>
    import("@opentelemetry/exporter-trace-otlp-proto"),
  "@opentelemetry/exporter-metrics-otlp-http": () =>
    import("@opentelemetry/exporter-metrics-otlp-http"),
  "@opentelemetry/exporter-metrics-otlp-proto": () =>
    import("@opentelemetry/exporter-metrics-otlp-proto"),
} as const;

/** The OpenTelemetry packages the exporter loads. */
export type OtlpPackage = keyof typeof loaders;

/** The packages one protocol needs, in the order they load. */
export function otlpPackages(protocol: OtlpProtocol): OtlpPackage[] {
  const wire = protocol === "http/json" ? "http" : "proto";
  return [
    "@opentelemetry/api",
    "@opentelemetry/resources",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/sdk-metrics",
    `@opentelemetry/exporter-trace-otlp-${wire}`,
    `@opentelemetry/exporter-metrics-otlp-${wire}`,
  ];
}

// Structural slices of the SDK packages: this package's declarations need none of them.
type Constructor<T> = new (options: Record<string, unknown>) => T;
interface Shutdown {
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}
interface SdkModules {
  api: OpenTelemetryApi;
  resources: { resourceFromAttributes(attributes: Record<string, string>): unknown };
  traceBase: {
    BasicTracerProvider: Constructor<OpenTelemetryTracerProvider & Shutdown>;
    BatchSpanProcessor: new (exporter: unknown) => unknown;
  };
  metrics: {
    MeterProvider: Constructor<OpenTelemetryMeterProvider & Shutdown>;
    PeriodicExportingMetricReader: Constructor<unknown>;
  };
  traceExporter: { OTLPTraceExporter: Constructor<unknown> };
  metricExporter: { OTLPMetricExporter: Constructor<unknown> };
}

const defaultLoad = (name: OtlpPackage): Promise<unknown> => loaders[name]();

async function loadSdk(
  protocol: OtlpProtocol,
  load: (name: OtlpPackage) => Promise<unknown>,
): Promise<SdkModules> {
  const names = otlpPackages(protocol);
  // Loaded side by side: the SDK's modules take a while to parse.
  const settled = await Promise.allSettled(names.map((name) => load(name)));
  const failed = settled.findIndex((outcome) => outcome.status === "rejected");
  if (failed >= 0) {
    const reason = (settled[failed] as PromiseRejectedResult).reason;
    throw new OtlpPackagesMissingError(
      `telemetry.otlp is configured but ${names[failed]} cannot be loaded (${firstLine(reason)}); install ${names.join(" ")}`,
    );
  }
  const loaded = settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value);
  const [api, resources, traceBase, metrics, traceExporter, metricExporter] = loaded;
  return { api, resources, traceBase, metrics, traceExporter, metricExporter } as SdkModules;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] ?? "";
}

/**
 * Loads the official OpenTelemetry SDK and OTLP exporters (optional peer dependencies) with dynamic
 * imports and starts exporting spans and the MCP duration metrics to `config.endpoint`. Nothing is
 * registered globally. Rejects with {@link OtlpPackagesMissingError} when a package is missing.
 */
export async function startOtlpExporter(
  config: OtlpExporterConfig,
  options: OtlpExporterOptions = {},
): Promise<OtlpExporter> {
  const protocol = config.protocol ?? "http/protobuf";
  const sdk = await loadSdk(protocol, options.load ?? defaultLoad);
  const base = config.endpoint.replace(/\/+$/, "");
  const headers = { ...(config.headers ?? {}) };
  const resource = sdk.resources.resourceFromAttributes({
    "service.name": config.serviceName ?? options.defaultServiceName ?? "patchbay",
    ...(options.serviceVersion === undefined ? {} : { "service.version": options.serviceVersion }),
  });
  const spanExporter = new sdk.traceExporter.OTLPTraceExporter({
    url: `${base}/v1/traces`,
    headers,
  });
  const tracerProvider = new sdk.traceBase.BasicTracerProvider({
    resource,
    spanProcessors: [new sdk.traceBase.BatchSpanProcessor(spanExporter)],
  });
  const metricExporter = new sdk.metricExporter.OTLPMetricExporter({
    url: `${base}/v1/metrics`,
    headers,
  });
  const meterProvider = new sdk.metrics.MeterProvider({
    resource,
    readers: [
      new sdk.metrics.PeriodicExportingMetricReader({
        exporter: metricExporter,
        exportIntervalMillis: options.metricIntervalMs ?? 60_000,
      }),
    ],
  });
  let stopped: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    stopped ??= Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]).then(
      () => undefined,
    );
    return stopped;
  };
  const bridge: OpenTelemetryBridge = {
    ...createOpenTelemetryBridge({ api: sdk.api, tracerProvider, meterProvider }),
    shutdown,
  };
  return {
    bridge,
    async flush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    shutdown,
  };
}
