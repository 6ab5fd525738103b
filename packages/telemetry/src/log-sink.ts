import type { TelemetryEvent } from "./event.js";
import type { EventSink } from "./event-sink.js";

/** Formats an event as one human-readable line (no trailing newline), for stderr logs. */
export function formatEventLine(event: TelemetryEvent): string {
  const parts = [event.timestamp, event.event_type, event.status];
  if (event.backend !== undefined) parts.push(`backend=${event.backend}`);
  if (event.method !== undefined) parts.push(`method=${event.method}`);
  if (event.tool !== undefined) parts.push(`tool=${event.tool}`);
  if (event.duration_ms !== undefined) parts.push(`duration_ms=${event.duration_ms.toFixed(1)}`);
  parts.push(`trace_id=${event.trace_id}`);
  if (Object.keys(event.data).length > 0) {
    try {
      parts.push(JSON.stringify(event.data));
    } catch {
      parts.push("{unserializable data}");
    }
  }
  return parts.join(" ");
}

/**
 * An {@link EventSink} that hands each event, formatted by {@link formatEventLine}, to `write`
 * (for example a function that writes to stderr). Events arrive redacted like in every sink.
 */
export function createLogSink(write: (line: string) => void | Promise<void>): EventSink {
  return {
    async write(events) {
      for (const event of events) await write(formatEventLine(event));
    },
  };
}
