import { createTelemetry, startOtlpExporter } from "@patchbay/telemetry";

export async function exportOverOtlp() {
  // Loads the SDK and exporters (optional peers) only now; rejects in one line if one is missing.
  const exporter = await startOtlpExporter(
    {
      endpoint: "http://127.0.0.1:4318",
      headers: { "x-api-key": process.env.OTLP_API_KEY ?? "" },
      serviceName: "my-gateway",
      protocol: "http/protobuf",
    },
    { serviceVersion: "1.0.0" },
  );
  const telemetry = createTelemetry({ source: "gateway", openTelemetry: exporter.bridge });
  // ... instrument transports and connections with `telemetry` ...
  // On shutdown: closing the telemetry sends the last spans and metrics.
  await telemetry.close();
}
