import {
  createTelemetry,
  EVENT_QUERY_JSON_SCHEMA,
  PROMETHEUS_CONTENT_TYPE,
  TelemetryError,
} from "@patchbay/telemetry";

const telemetry = createTelemetry({ source: "gateway" });

/** How the gateway lists its `get_events` tool. */
export const getEventsTool = {
  name: "get_events",
  description: "Recent gateway events, most recent first.",
  inputSchema: EVENT_QUERY_JSON_SCHEMA,
};

/** The gateway's `get_events` tool: arguments come from the client and are validated. */
export function getEvents(toolArguments: unknown) {
  try {
    const events = telemetry.query(toolArguments as Record<string, unknown>);
    return {
      content: [{ type: "text", text: JSON.stringify(events) }],
      structuredContent: { events },
    };
  } catch (error) {
    if (TelemetryError.isInstance(error) && error.code === "INVALID_QUERY") {
      return { content: [{ type: "text", text: error.message }], isError: true };
    }
    throw error;
  }
}

// Failures of the github backend in the last five minutes, newest first.
export const recentFailures = telemetry.query({
  event_type: "backend.*",
  backend: "github",
  status: "failure",
  since: "5m",
  limit: 20,
});

// Everything that happened in one trace.
export const oneTrace = telemetry.query({ trace_id: "4bf92f3577b34da6a3ce929d0e0e4736" });

/** The proxy's `/metrics` endpoint. */
export function metricsResponse(): Response {
  return new Response(telemetry.registry.render(), {
    headers: { "content-type": PROMETHEUS_CONTENT_TYPE },
  });
}
