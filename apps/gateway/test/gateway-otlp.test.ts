import { type OtlpReceiver, startOtlpReceiver } from "@patchbay/telemetry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

// OTLP's SpanKind values.
const spanKindServer = 2;
const spanKindClient = 3;
const otlpKey = "otlp-key-9f8e7d6c";

describe("gateway: OTLP export", () => {
  let receiver: OtlpReceiver;
  let status = "";
  let stderr = "";

  // One gateway: a tool call and gateway_status, then the client closes it, which flushes the export.
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const path = writeConfig(temporaryDirectory(), {
      telemetry: {
        otlp: {
          endpoint: receiver.endpoint,
          protocol: "http/json",
          headers: { "x-api-key": otlpKey },
          serviceName: "gateway-under-test",
        },
      },
      mcpServers: { sample: { command: process.execPath, args: [backends.sample] } },
    });
    const connected = await connectGateway(path);
    await connected.client.callTool({ name: "sample__echo", arguments: { message: "hi" } });
    const result = await connected.client.callTool({ name: "gateway_status", arguments: {} });
    status = JSON.stringify(result);
    await connected.client.close();
    await receiver.waitFor((request) => request.path === "/v1/metrics");
    await receiver.waitFor((request) => request.path === "/v1/traces");
    stderr = connected.stderr();
  }, 30_000);

  afterAll(async () => {
    await receiver.close();
  });

  it("exports the call as a server span with the MCP attributes, and its backend leg in the same trace", () => {
    const spans = receiver.spans();
    const server = spans.find(
      (span) => span.kind === spanKindServer && span.name === "tools/call sample__echo",
    );
    expect(server?.serviceName).toBe("gateway-under-test");
    expect(server?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "sample__echo",
      "gen_ai.operation.name": "execute_tool",
      "network.transport": "pipe",
      "jsonrpc.protocol.version": "2.0",
    });
    expect(server?.attributes["mcp.session.id"]).toEqual(expect.any(String));
    expect(server?.attributes["mcp.protocol.version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const leg = spans.find(
      (span) => span.kind === spanKindClient && span.name === "tools/call echo",
    );
    expect(leg?.traceId).toBe(server?.traceId);
    expect(leg?.parentSpanId).toBe(server?.spanId);
    expect(leg?.attributes).toMatchObject({
      "gen_ai.tool.name": "echo",
      "patchbay.backend": "sample",
      "network.transport": "pipe",
    });
    expect(leg?.attributes["mcp.protocol.version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(receiver.requests[0]?.headers["x-api-key"]).toBe(otlpKey);
  });

  it("exports mcp.server.operation.duration and mcp.client.operation.duration", () => {
    const metrics = receiver.metrics();
    const server = metrics.find((metric) => metric.name === "mcp.server.operation.duration");
    expect(server?.unit).toBe("s");
    expect(server?.points).toContainEqual({
      count: 1,
      attributes: expect.objectContaining({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "sample__echo",
      }),
    });
    const client = metrics.find((metric) => metric.name === "mcp.client.operation.duration");
    expect(client?.points.map((point) => point.attributes["mcp.method.name"])).toContain(
      "tools/call",
    );
  });

  it("never shows the exporter's headers in gateway_status or the log", () => {
    expect(status).toContain("gateway-under-test");
    expect(status).not.toContain(otlpKey);
    expect(stderr).not.toContain(otlpKey);
  });
});
