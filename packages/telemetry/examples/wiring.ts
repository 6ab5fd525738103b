import { createConnection, type JSONRPCParams, type Transport } from "@patchbay/jsonrpc-core";
import {
  createJsonLinesFileSink,
  createTelemetry,
  EventTypes,
  injectTraceContext,
  instrumentConnection,
  instrumentTransport,
  loadOpenTelemetryBridge,
  requestTraceOf,
} from "@patchbay/telemetry";

export async function wireGateway(clientTransport: Transport, githubTransport: Transport) {
  const telemetry = createTelemetry({
    source: "gateway",
    capacity: 5000,
    sinks: [
      createJsonLinesFileSink({
        path: "/var/log/patchbay/events.jsonl",
        maxBytes: 10_000_000,
        maxFiles: 5,
      }),
    ],
    // Masked wherever they appear, besides bearer tokens, Authorization/Cookie headers and env blocks.
    redaction: { secretValues: ["ghp_example_token"], secretKeys: ["githubPat"] },
    // Spans reach OpenTelemetry only once an SDK registers a tracer provider; until then, a no-op.
    openTelemetry: await loadOpenTelemetryBridge(),
  });

  // Decorate a Connection: requests its handlers answer are traced, timed and counted.
  const front = instrumentConnection(createConnection(clientTransport), telemetry);

  // Or decorate a Transport: every request crossing it, either way, is traced, timed and counted.
  // (Pick one decorator per channel.)
  const github = createConnection(
    instrumentTransport(githubTransport, telemetry, { backend: "github" }),
  );

  // Forwarding continues the caller's trace: the backend sees this hop's span as its parent.
  front.handle("tools/call", (params, context) => {
    const trace = requestTraceOf(context);
    const forwarded = trace === undefined ? params : injectTraceContext(params ?? {}, trace);
    return github.request("tools/call", forwarded as JSONRPCParams);
  });

  await Promise.all([front.start(), github.start()]);
  telemetry.record({ event_type: EventTypes.gatewayStarted, data: { backends: ["github"] } });
  return telemetry;
}
