import type { LoggingLevel } from "@patchbay/client";
import type { EventInput } from "@patchbay/telemetry";

/**
 * The log line a client gets (`notifications/message`, logger `patchbay-gateway`) for a backend
 * lifecycle event: a crash or failed start as a warning (error once the gateway gave up), a start
 * after a crash as a notice. Other events give none.
 */
export function describeLifecycleEvent(
  event: EventInput,
): { level: LoggingLevel; text: string } | undefined {
  const data = event.data ?? {};
  switch (event.event_type) {
    case "backend.crashed":
      return data.gave_up === undefined
        ? {
            level: "warning",
            text: `Backend "${event.backend}" is down (${String(data.reason)}); restarting in ${String(data.restart_in_ms)} ms. Its tools are unavailable meanwhile.`,
          }
        : {
            level: "error",
            text: `Backend "${event.backend}" is down (${String(data.reason)}) and will not be restarted: ${String(data.gave_up)}.`,
          };
    case "backend.restarted":
      return { level: "notice", text: `Backend "${event.backend}" is running again.` };
    default:
      return undefined;
  }
}
