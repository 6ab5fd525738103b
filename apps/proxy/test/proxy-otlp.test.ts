import { type OtlpReceiver, startOtlpReceiver } from "@patchbay/telemetry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSdk, connectSdk, sampleEntry, startTestProxy } from "./proxy-helpers.js";

// OTLP's SpanKind values.
const spanKindServer = 2;
const spanKindClient = 3;
const otlpKey = "otlp-key-1a2b3c4d";

describe("proxy: OTLP export", () => {
  let receiver: OtlpReceiver;
  let status = "";
  let logs = "";
  let httpSessionId: string | undefined;

  // One proxy: a tool call and gateway_status over Streamable HTTP, then a graceful stop flushes.
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const proxy = await startTestProxy({
      telemetry: {
        otlp: {
          endpoint: receiver.endpoint,
          protocol: "http/json",
          headers: { authorization: `Bearer ${otlpKey}` },
        },
      },
      mcpServers: { sample: sampleEntry() },
    });
    try {
      const connected = await connectSdk(proxy.url);
      httpSessionId = connected.transport.sessionId;
      await connected.client.callTool({ name: "sample__add", arguments: { a: 1, b: 2 } });
      status = JSON.stringify(
        await connected.client.callTool({ name: "gateway_status", arguments: {} }),
      );
      await closeSdk(connected);
    } finally {
      await proxy.stop();
    }
    await receiver.waitFor((request) => request.path === "/v1/traces");
    await receiver.waitFor((request) => request.path === "/v1/metrics");
    logs = proxy.logs.join("\n");
  }, 30_000);

  afterAll(async () => {
    await receiver.close();
  });

  it("exports the call as a server span with the MCP attributes, and its backend leg in the same trace", () => {
    const spans = receiver.spans();
    const server = spans.find(
      (span) => span.kind === spanKindServer && span.name === "tools/call sample__add",
    );
    expect(server?.serviceName).toBe("patchbay-proxy");
    expect(server?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "sample__add",
      "gen_ai.operation.name": "execute_tool",
      "network.transport": "tcp",
    });
    // The HTTP session (Mcp-Session-Id), as the client and every replica know it.
    expect(httpSessionId).toEqual(expect.any(String));
    expect(server?.attributes["mcp.session.id"]).toBe(httpSessionId);
    expect(server?.attributes["mcp.protocol.version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const leg = spans.find(
      (span) => span.kind === spanKindClient && span.name === "tools/call add",
    );
    expect(leg?.traceId).toBe(server?.traceId);
    expect(leg?.parentSpanId).toBe(server?.spanId);
    expect(leg?.attributes).toMatchObject({
      "patchbay.backend": "sample",
      "gen_ai.tool.name": "add",
    });
    expect(leg?.attributes["mcp.protocol.version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(receiver.requests[0]?.headers.authorization).toBe(`Bearer ${otlpKey}`);
  });

  it("exports mcp.server.operation.duration for the call", () => {
    const duration = receiver
      .metrics()
      .find((metric) => metric.name === "mcp.server.operation.duration");
    expect(duration?.unit).toBe("s");
    expect(duration?.points).toContainEqual({
      count: 1,
      attributes: expect.objectContaining({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "sample__add",
        "network.transport": "tcp",
      }),
    });
  });

  it("never shows the exporter's headers in gateway_status or the log", () => {
    // A client that is not the operator sees the config without its telemetry block.
    expect(status).toContain('"config"');
    expect(status).not.toContain(otlpKey);
    expect(logs).not.toContain(otlpKey);
  });
});
