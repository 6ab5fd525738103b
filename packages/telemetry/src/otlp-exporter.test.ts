import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OtlpPackagesMissingError, startOtlpExporter } from "./otlp-exporter.js";
import { trackRequest } from "./request-tracker.js";
import { createTelemetry } from "./telemetry.js";
import { type OtlpReceiver, startOtlpReceiver } from "./testing/index.js";
import { injectTraceContext } from "./trace-context.js";

// OTLP's SpanKind and StatusCode values.
const spanKindServer = 2;
const spanKindClient = 3;
const statusError = 2;

/** One tools/call answered (server span) and forwarded to backend `github`, which failed. */
function callThroughGateway(telemetry: ReturnType<typeof createTelemetry>): void {
  const call = trackRequest(telemetry, {
    direction: "incoming",
    method: "tools/call",
    params: { name: "github__get_weather" },
    id: 7,
    session: "session-1",
    mcpSessionId: "d2f1c9b0e4a5",
    protocolVersion: () => "2025-11-25",
    networkTransport: "pipe",
  });
  const leg = trackRequest(telemetry, {
    direction: "outgoing",
    method: "tools/call",
    params: injectTraceContext({ name: "get_weather" }, call.trace),
    id: 1,
    backend: "github",
    networkTransport: "tcp",
  });
  leg.end({ outcome: "error", error: { code: -32602, message: "unknown city" } });
  call.end({ outcome: "tool_error", error: { message: "tool returned isError: true" } });
}

describe("OTLP exporter", () => {
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it("exports spans and duration metrics named by the MCP conventions over http/json on close", async () => {
    const exporter = await startOtlpExporter(
      {
        endpoint: `${receiver.endpoint}/`,
        protocol: "http/json",
        headers: { "x-api-key": "otlp-secret" },
        serviceName: "gateway-under-test",
      },
      { serviceVersion: "1.2.3" },
    );
    const telemetry = createTelemetry({ openTelemetry: exporter.bridge });
    callThroughGateway(telemetry);
    // Closing the telemetry shuts the exporter down: what was buffered is exported.
    await telemetry.close();
    const traces = await receiver.waitFor((request) => request.path === "/v1/traces");
    await receiver.waitFor((request) => request.path === "/v1/metrics");
    expect(traces.headers["x-api-key"]).toBe("otlp-secret");
    expect(traces.headers["content-type"]).toContain("application/json");

    const spans = receiver.spans();
    const server = spans.find((span) => span.kind === spanKindServer);
    const client = spans.find((span) => span.kind === spanKindClient);
    expect(server?.name).toBe("tools/call github__get_weather");
    expect(server?.serviceName).toBe("gateway-under-test");
    expect(server?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "github__get_weather",
      "gen_ai.operation.name": "execute_tool",
      "mcp.session.id": "d2f1c9b0e4a5",
      "mcp.protocol.version": "2025-11-25",
      "jsonrpc.request.id": "7",
      "jsonrpc.protocol.version": "2.0",
      "network.transport": "pipe",
      "error.type": "tool_error",
    });
    expect(server?.status?.code).toBe(statusError);
    expect(server?.attributes).not.toHaveProperty("rpc.method");
    expect(client?.name).toBe("tools/call get_weather");
    expect(client?.traceId).toBe(server?.traceId);
    expect(client?.parentSpanId).toBe(server?.spanId);
    expect(client?.attributes).toMatchObject({
      "gen_ai.tool.name": "get_weather",
      "patchbay.backend": "github",
      "network.transport": "tcp",
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
    });
    expect(client?.status).toMatchObject({ code: statusError, message: "unknown city" });

    const metrics = receiver.metrics();
    const serverDuration = metrics.find(
      (metric) => metric.name === "mcp.server.operation.duration",
    );
    const clientDuration = metrics.find(
      (metric) => metric.name === "mcp.client.operation.duration",
    );
    expect(serverDuration?.unit).toBe("s");
    expect(serverDuration?.points).toEqual([
      {
        count: 1,
        attributes: {
          "mcp.method.name": "tools/call",
          "gen_ai.tool.name": "github__get_weather",
          "gen_ai.operation.name": "execute_tool",
          "mcp.protocol.version": "2025-11-25",
          "jsonrpc.protocol.version": "2.0",
          "network.transport": "pipe",
          "error.type": "tool_error",
        },
      },
    ]);
    expect(clientDuration?.points[0]?.attributes).toMatchObject({
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
    });
  });

  it("exports http/protobuf by default", async () => {
    const before = receiver.requests.length;
    const exporter = await startOtlpExporter({ endpoint: receiver.endpoint });
    const telemetry = createTelemetry({ openTelemetry: exporter.bridge });
    trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "echo" },
    }).end({ outcome: "success" });
    await exporter.shutdown();
    const traces = await receiver.waitFor(
      (request) => request.path === "/v1/traces" && receiver.requests.indexOf(request) >= before,
    );
    expect(traces.headers["content-type"]).toBe("application/x-protobuf");
    expect(traces.body.includes("tools/call echo")).toBe(true);
  });

  it("says in one line which package is missing when the SDK is not installed", async () => {
    const missing = startOtlpExporter(
      { endpoint: receiver.endpoint, protocol: "http/json" },
      {
        load: async (name) => {
          if (name === "@opentelemetry/sdk-metrics")
            throw new Error("Cannot find package '@opentelemetry/sdk-metrics'\n    at stack");
          return {};
        },
      },
    );
    await expect(missing).rejects.toBeInstanceOf(OtlpPackagesMissingError);
    await expect(missing).rejects.toThrow(
      /^telemetry\.otlp is configured but @opentelemetry\/sdk-metrics cannot be loaded \(Cannot find package '@opentelemetry\/sdk-metrics'\); install @opentelemetry\/api .*@opentelemetry\/exporter-metrics-otlp-http$/,
    );
  });
});
