import { dirname, resolve } from "node:path";
import type { TelemetryConfig } from "@patchbay/router";
import {
  createJsonLinesFileSink,
  createTelemetry,
  type EventSink,
  EventTypes,
  loadOpenTelemetryBridge,
  type OpenTelemetryBridge,
  startOtlpExporter,
  type Telemetry,
} from "@patchbay/telemetry";
import type { ProxyLog } from "./proxy-log.js";

/**
 * Where spans go: an OTLP exporter when `otlp` is set (flushed when the telemetry closes), a
 * globally registered SDK when `openTelemetry` is true and one is installed, else nowhere (nothing
 * is loaded).
 */
async function openTelemetryOf(
  config: TelemetryConfig,
  version: string | undefined,
): Promise<OpenTelemetryBridge | undefined> {
  if (config.otlp !== undefined) {
    const exporter = await startOtlpExporter(config.otlp, {
      defaultServiceName: "patchbay-proxy",
      ...(version === undefined ? {} : { serviceVersion: version }),
    });
    return exporter.bridge;
  }
  return config.openTelemetry ? await loadOpenTelemetryBridge() : undefined;
}

/**
 * The telemetry hub of the proxy, from the config's `telemetry` block: the in-memory event ring
 * (`bufferSize`), a rotated JSON Lines file (`eventsFile`, relative to the config file), spans to
 * OpenTelemetry (see {@link openTelemetryOf}), and `extraSinks` (the dashboard's live feed).
 */
export async function createProxyTelemetry(
  config: TelemetryConfig,
  configPath: string | undefined,
  log: ProxyLog,
  extraSinks: readonly EventSink[] = [],
  version?: string,
): Promise<Telemetry> {
  const sinks: EventSink[] = [...extraSinks];
  if (config.eventsFile !== undefined) {
    const base = configPath === undefined ? process.cwd() : dirname(resolve(configPath));
    sinks.push(
      createJsonLinesFileSink({
        path: resolve(base, config.eventsFile),
        ...(config.maxFileBytes === undefined ? {} : { maxBytes: config.maxFileBytes }),
      }),
    );
  }
  const openTelemetry = await openTelemetryOf(config, version);
  return createTelemetry({
    source: "proxy",
    ...(config.bufferSize === undefined ? {} : { capacity: config.bufferSize }),
    sinks,
    ...(openTelemetry === undefined ? {} : { openTelemetry }),
    onSinkError: (error) => log.warn(`event sink failed: ${String(error)}`),
  });
}

// The events that close a request: the only ones the dashboard's call feed reads.
const requestEndTypes = new Set<string>([
  EventTypes.requestCompleted,
  EventTypes.toolCalled,
  EventTypes.requestTimeout,
  EventTypes.requestCancelled,
]);

/**
 * The dashboard's call feed as a sink that declares, by type, that it reads only the events that
 * close a request: the others (`request.received`, lifecycle events) are never queued for it. The
 * one it reads per call reaches it unbuilt (`writeUnbuilt`): it is built (bounded and redacted)
 * once, shared with the store, only when a page, `recent()` or a query reads it.
 */
export function callFeedSink(sink: EventSink): EventSink {
  return { ...sink, acceptsType: (type) => requestEndTypes.has(type) };
}
