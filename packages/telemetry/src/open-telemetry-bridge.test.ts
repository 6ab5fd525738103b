import * as api from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenTelemetryBridge, loadOpenTelemetryBridge } from "./open-telemetry-bridge.js";

const parent = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: 1,
};

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

describe("OpenTelemetry bridge", () => {
  afterEach(() => {
    api.trace.disable();
  });

  it("emits a span whose parent is the incoming trace context, to a provider passed in", () => {
    const { exporter, provider } = sdk();
    const bridge = createOpenTelemetryBridge({ api, tracerProvider: provider });
    const span = bridge.startSpan({
      name: "tools/call echo",
      kind: "server",
      parent,
      attributes: { "rpc.method": "tools/call" },
    });
    expect(span?.context.traceId).toBe(parent.traceId);
    span?.end();
    const [finished] = exporter.getFinishedSpans();
    expect(finished?.name).toBe("tools/call echo");
    expect(finished?.spanContext().traceId).toBe(parent.traceId);
    expect(finished?.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(finished?.spanContext().spanId).toBe(span?.context.spanId);
    expect(finished?.kind).toBe(api.SpanKind.SERVER);
    expect(finished?.attributes["rpc.method"]).toBe("tools/call");
  });

  it("marks a failed request's span with an error status", () => {
    const { exporter, provider } = sdk();
    const bridge = createOpenTelemetryBridge({ api, tracerProvider: provider });
    bridge
      .startSpan({ name: "ping", kind: "client", parent: undefined, attributes: {} })
      ?.end("boom");
    const [finished] = exporter.getFinishedSpans();
    expect(finished?.status).toEqual({ code: api.SpanStatusCode.ERROR, message: "boom" });
    expect(finished?.kind).toBe(api.SpanKind.CLIENT);
    expect(finished?.parentSpanContext).toBeUndefined();
  });

  it("follows the global provider once an SDK registers it", () => {
    const bridge = createOpenTelemetryBridge({ api });
    expect(
      bridge.startSpan({ name: "before", kind: "server", parent, attributes: {} }),
    ).toBeUndefined();
    const { exporter, provider } = sdk();
    api.trace.setGlobalTracerProvider(provider);
    bridge.startSpan({ name: "after", kind: "server", parent, attributes: {} })?.end();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["after"]);
    expect(exporter.getFinishedSpans()[0]?.parentSpanContext?.spanId).toBe(parent.spanId);
  });

  it("loads the API lazily and starts no span while no SDK is registered", async () => {
    const bridge = await loadOpenTelemetryBridge();
    expect(
      bridge.startSpan({ name: "ping", kind: "server", parent, attributes: {} }),
    ).toBeUndefined();
    const { exporter, provider } = sdk();
    api.trace.setGlobalTracerProvider(provider);
    bridge.startSpan({ name: "ping", kind: "server", parent, attributes: {} })?.end();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
  });

  it("passes tracestate on to the span", () => {
    const { exporter, provider } = sdk();
    const bridge = createOpenTelemetryBridge({ api, tracerProvider: provider });
    bridge
      .startSpan({
        name: "x",
        kind: "server",
        parent: { ...parent, traceState: "congo=t61" },
        attributes: {},
      })
      ?.end();
    expect(exporter.getFinishedSpans()[0]?.spanContext().traceState?.serialize()).toBe("congo=t61");
  });
});
