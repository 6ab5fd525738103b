import { dirname, resolve } from "node:path";
import type { TelemetryConfig } from "@patchbay/router";
import {
  createJsonLinesFileSink,
  createTelemetry,
  type EventSink,
  loadOpenTelemetryBridge,
  type Telemetry,
} from "@patchbay/telemetry";
import type { ProxyLog } from "./proxy-log.js";

/**
 * The telemetry hub of the proxy, from the config's `telemetry` block: the in-memory event ring
 * (`bufferSize`), a rotated JSON Lines file (`eventsFile`, relative to the config file), spans to
 * OpenTelemetry when asked and an SDK is installed, and `extraSinks` (the dashboard's live feed).
 */
export async function createProxyTelemetry(
  config: TelemetryConfig,
  configPath: string | undefined,
  log: ProxyLog,
  extraSinks: readonly EventSink[] = [],
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
  return createTelemetry({
    source: "proxy",
    ...(config.bufferSize === undefined ? {} : { capacity: config.bufferSize }),
    sinks,
    ...(config.openTelemetry ? { openTelemetry: await loadOpenTelemetryBridge() } : {}),
    onSinkError: (error) => log.warn(`event sink failed: ${String(error)}`),
  });
}
