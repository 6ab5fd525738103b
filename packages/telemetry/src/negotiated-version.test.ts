import * as api from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { nextFrame } from "../test/helpers.js";
import { instrumentTransport } from "./instrument-transport.js";
import { createOpenTelemetryBridge } from "./open-telemetry-bridge.js";
import { createTelemetry } from "./telemetry.js";

describe("instrumentTransport to a server", () => {
  it("puts the revision the server answered to initialize on later spans, and network.transport on all", async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const telemetry = createTelemetry({
      openTelemetry: createOpenTelemetryBridge({ api, tracerProvider }),
    });
    const [rawClient, server] = createMemoryTransportPair();
    await Promise.all([rawClient.start(), server.start()]);
    const client = instrumentTransport(rawClient, telemetry, {
      backend: "b",
      networkTransport: "pipe",
    });
    const answer = async (id: number, result: Record<string, unknown>) => {
      const arrived = nextFrame(client);
      await server.send({ jsonrpc: "2.0", id, result });
      await arrived;
    };
    await client.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    await answer(1, { protocolVersion: "2025-06-18", capabilities: {} });
    await client.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await answer(2, { tools: [] });

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(["initialize", "tools/list"]);
    expect(spans[0]?.attributes).not.toHaveProperty("mcp.protocol.version");
    expect(spans[1]?.attributes["mcp.protocol.version"]).toBe("2025-06-18");
    expect(spans.map((span) => span.attributes["network.transport"])).toEqual(["pipe", "pipe"]);
  });
});
