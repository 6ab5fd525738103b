import type { EventSink, TelemetryEvent } from "@patchbay/telemetry";

/** Where {@link createBackendLogSink} writes: an app's log (lines are redacted there). */
export interface BackendLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Request lines; without it they are not logged. */
  debug?(message: string): void;
  /** False when lines of `level` are dropped anyway (their events are then declined unbuilt). */
  isEnabled?(level: "debug"): boolean;
}

/** One log line an event becomes. */
export interface BackendLogLine {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly text: string;
}

const requestEvents = new Set([
  "tool.called",
  "request.completed",
  "request.timeout",
  "request.cancelled",
]);
const lifecycleEvents = new Set([
  "backend.started",
  "backend.restarted",
  "backend.crashed",
  "backend.stopped",
  "gateway.reloaded",
]);

/**
 * The line a person running Patchbay reads for an event: a backend running (again), down (why:
 * its exit code or signal, its last stderr lines) and restarting in N ms or given up, stopped; a
 * reload; requests at `debug`. Undefined for the events not logged.
 */
export function describeBackendEvent(event: TelemetryEvent): BackendLogLine | undefined {
  const data = event.data as Record<string, unknown>;
  switch (event.event_type) {
    case "backend.started":
      return { level: "info", text: `backend ${event.backend} is running (${runningFacts(data)})` };
    case "backend.restarted":
      return {
        level: "info",
        text: `backend ${event.backend} is running again (${runningFacts(data)})`,
      };
    case "backend.crashed":
      return describeCrash(event.backend, data);
    case "backend.stopped":
      return { level: "info", text: `backend ${event.backend} stopped` };
    case "gateway.reloaded":
      return { level: "info", text: "config reloaded" };
    default:
      return requestEvents.has(event.event_type)
        ? { level: "debug", text: describeRequest(event) }
        : undefined;
  }
}

function runningFacts(data: Record<string, unknown>): string {
  return `${String(data.transport)}, protocol ${String(data.protocol_version)}, ${String(data.tool_count)} tools`;
}

function describeCrash(backend: string | undefined, data: Record<string, unknown>): BackendLogLine {
  const restarting = data.restart_in_ms !== undefined;
  const next = restarting ? `restarting in ${String(data.restart_in_ms)} ms` : String(data.gave_up);
  const stderr = Array.isArray(data.stderr) ? data.stderr.map((line) => JSON.stringify(line)) : [];
  const said = stderr.length === 0 ? "" : `; its last stderr lines: ${stderr.join(", ")}`;
  return {
    level: restarting ? "warn" : "error",
    text: `backend ${backend} is down: ${String(data.reason)}; ${next}${said}`,
  };
}

function describeRequest(event: TelemetryEvent): string {
  const tool = event.tool ? ` ${event.tool}` : "";
  const backend = event.backend ? ` (backend ${event.backend})` : "";
  const duration = event.duration_ms === undefined ? "" : `, ${Math.round(event.duration_ms)} ms`;
  return `${event.event_type} ${event.method ?? ""}${tool}${backend}: ${event.status}${duration}, trace ${event.trace_id}`;
}

/**
 * Logs the events a person running a gateway or proxy cares about, as {@link describeBackendEvent}
 * words them; request events only when `logger` writes `debug` lines. Other events are declined
 * by type before they are queued: the message path pays nothing for them.
 */
export function createBackendLogSink(logger: BackendLogger): EventSink {
  const debug = logger.debug !== undefined && (logger.isEnabled?.("debug") ?? true);
  // By type alone, so the telemetry keeps declined request events unbuilt (recordDeferred).
  const acceptsType = (type: string) =>
    lifecycleEvents.has(type) || (debug && requestEvents.has(type));
  return {
    acceptsType,
    accepts: (event) => acceptsType(event.event_type),
    async write(events) {
      for (const event of events) {
        const line = describeBackendEvent(event);
        if (line) logger[line.level]?.(line.text);
      }
    },
  };
}
