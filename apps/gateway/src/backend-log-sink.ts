import type { EventSink, TelemetryEvent } from "@patchbay/telemetry";
import type { Logger } from "./logger.js";

function describeEvent(
  event: TelemetryEvent,
): { level: "debug" | "info" | "warn"; text: string } | undefined {
  const data = event.data as Record<string, unknown>;
  switch (event.event_type) {
    case "backend.started":
    case "backend.restarted":
      return {
        level: "info",
        text: `backend ${event.backend} is running (${String(data.transport)}, protocol ${String(data.protocol_version)}, ${String(data.tool_count)} tools)`,
      };
    case "backend.crashed":
      return {
        level: "warn",
        text: `backend ${event.backend} is down: ${String(data.reason)}${
          data.restart_in_ms === undefined
            ? `; ${String(data.gave_up)}`
            : `; restarting in ${String(data.restart_in_ms)} ms`
        }`,
      };
    case "backend.stopped":
      return { level: "info", text: `backend ${event.backend} stopped` };
    case "gateway.reloaded":
      return { level: "info", text: "config reloaded" };
    case "tool.called":
    case "request.completed":
    case "request.timeout":
    case "request.cancelled":
      return {
        level: "debug",
        text: `${event.event_type} ${event.method ?? ""}${event.tool ? ` ${event.tool}` : ""}${
          event.backend ? ` (backend ${event.backend})` : ""
        }: ${event.status}${event.duration_ms === undefined ? "" : `, ${Math.round(event.duration_ms)} ms`}, trace ${event.trace_id}`,
      };
    default:
      return undefined;
  }
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
 * Logs the events a person running the gateway cares about (backends up, down, restarted; requests
 * at `debug`). Other events, and request events when `debug` lines are dropped, are declined before
 * they are queued: the message path pays nothing for them.
 */
export function createBackendLogSink(logger: Logger): EventSink {
  const debug = logger.isEnabled?.("debug") ?? true;
  // By type alone, so the telemetry keeps declined request events unbuilt (recordDeferred).
  const acceptsType = (type: string) =>
    lifecycleEvents.has(type) || (debug && requestEvents.has(type));
  return {
    acceptsType,
    accepts: (event) => acceptsType(event.event_type),
    async write(events) {
      for (const event of events) {
        const line = describeEvent(event);
        if (line) logger[line.level](line.text);
      }
    },
  };
}
