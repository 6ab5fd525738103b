import * as api from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  type Connection,
  type ConnectionOptions,
  createConnection,
  createMemoryTransportPair,
  InvalidParamsError,
  type JSONRPCParams,
} from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterEach, describe, expect, it } from "vitest";
import {
  createTestTelemetry,
  incomingSpanId,
  incomingTraceId,
  incomingTraceparent,
  whenRecorded,
} from "../test/helpers.js";
import { instrumentConnection, requestTraceOf } from "./instrument-connection.js";
import { createOpenTelemetryBridge } from "./open-telemetry-bridge.js";
import { createTelemetry } from "./telemetry.js";
import { injectTraceContext, readTraceContext } from "./trace-context.js";

const open: Connection[] = [];

async function connectionPair(options: ConnectionOptions = {}): Promise<[Connection, Connection]> {
  const [clientTransport, serverTransport] = createMemoryTransportPair();
  const client = createConnection(clientTransport, options);
  const server = createConnection(serverTransport);
  open.push(client, server);
  await Promise.all([client.start(), server.start()]);
  return [client, server];
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe("instrumentConnection", () => {
  it("records an answered request on both sides, with one trace across them", async () => {
    const clientTelemetry = createTestTelemetry();
    const serverTelemetry = createTestTelemetry();
    const [rawClient, rawServer] = await connectionPair();
    const client = instrumentConnection(rawClient, clientTelemetry, { backend: "echo-server" });
    const server = instrumentConnection(rawServer, serverTelemetry, { source: "backend" });
    server.handle("tools/call", (params) => ({
      content: [{ type: "text", text: JSON.stringify(params) }],
    }));

    await client.request("tools/call", { name: "echo", arguments: {} });

    const sent = clientTelemetry.query({ event_type: "request.sent" })[0];
    const called = clientTelemetry.query({ event_type: "tool.called" })[0];
    expect(called).toMatchObject({
      status: "success",
      backend: "echo-server",
      tool: "echo",
      duration_ms: 5,
    });
    const received = serverTelemetry.query({ event_type: "request.received" })[0];
    expect(received).toMatchObject({ source: "backend", method: "tools/call", tool: "echo" });
    expect(received?.trace_id).toBe(sent?.trace_id);
    expect(received?.parent_span_id).toBe(sent?.span_id);
    expect(serverTelemetry.query({ event_type: "tool.called" })[0]?.status).toBe("success");
  });

  it("is a plain object over the original: each member read is the same function, closing closes it", async () => {
    const [rawClient] = await connectionPair();
    const client = instrumentConnection(rawClient, createTestTelemetry());
    expect(Object.getPrototypeOf(client)).toBe(Object.prototype);
    for (const member of ["request", "notify", "handle", "onClose", "setFallbackRequestHandler"]) {
      const read = (client as unknown as Record<string, unknown>)[member];
      expect(typeof read).toBe("function");
      expect((client as unknown as Record<string, unknown>)[member]).toBe(read);
    }
    expect(client.closed).toBe(false);
    await client.close();
    expect(rawClient.closed).toBe(true);
    expect(client.closed).toBe(true);
  });

  it("records a peer's JSON-RPC error as a failure with its code", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = await connectionPair();
    const client = instrumentConnection(rawClient, telemetry);
    server.handle("strict", () => {
      throw new InvalidParamsError("bad params");
    });
    await expect(client.request("strict", {})).rejects.toThrow("bad params");
    expect(telemetry.query()[0]).toMatchObject({
      event_type: "request.completed",
      status: "failure",
      data: { outcome: "error", error: { code: -32602 } },
    });
  });

  it("records a timeout as request.timeout", async () => {
    const telemetry = createTestTelemetry();
    const clock = createManualClock();
    const [rawClient] = await connectionPair({ clock });
    const client = instrumentConnection(rawClient, telemetry);
    const pending = client.request("never", {}, { timeoutMs: 1000 });
    clock.advance(1000);
    await expect(pending).rejects.toMatchObject({ code: "REQUEST_TIMEOUT" });
    expect(telemetry.query()[0]).toMatchObject({
      event_type: "request.timeout",
      status: "failure",
      data: { outcome: "timeout" },
    });
    const family = parsePrometheusTextFormat(telemetry.registry.render()).find(
      (item) => item.name === "patchbay_requests_total",
    );
    expect(family?.metrics[0]?.labels?.outcome).toBe("timeout");
  });

  it("labels incoming tools/call metrics only with names knownTool accepts, and tags events with the session", async () => {
    const telemetry = createTestTelemetry();
    const [client, rawServer] = await connectionPair();
    const server = instrumentConnection(rawServer, telemetry, {
      session: "session-1",
      knownTool: (name) => name === "real",
    });
    server.handle("tools/call", () => ({ content: [] }));
    for (const name of ["real", "made-up-1", "made-up-2"]) {
      await client.request("tools/call", { name, arguments: {} });
    }
    const family = parsePrometheusTextFormat(telemetry.registry.render()).find(
      (item) => item.name === "patchbay_requests_total",
    );
    const byTool = Object.fromEntries(
      (family?.metrics ?? []).map((metric) => [metric.labels?.tool, Number(metric.value)]),
    );
    expect(byTool).toEqual({ real: 1, __unknown__: 2 });
    // Events keep the name the client sent: they are for finding a call, not for labels.
    const called = telemetry.query({ event_type: "tool.called" }).map((event) => event.tool);
    expect(called.sort()).toEqual(["made-up-1", "made-up-2", "real"]);
    expect(telemetry.query().every((event) => event.data.session === "session-1")).toBe(true);
  });

  it("records a cancelled request as request.cancelled", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient] = await connectionPair();
    const client = instrumentConnection(rawClient, telemetry);
    const controller = new AbortController();
    const pending = client.request("never", {}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "REQUEST_CANCELLED" });
    expect(telemetry.query()[0]?.event_type).toBe("request.cancelled");
  });

  it("records a handler that finishes after the caller cancelled as cancelled", async () => {
    const telemetry = createTestTelemetry();
    const cancellation = {
      createNotification: (id: string | number, reason?: string) => ({
        jsonrpc: "2.0" as const,
        method: "notifications/cancelled",
        params: { requestId: id, ...(reason === undefined ? {} : { reason }) },
      }),
      readRequestId: (notification: { params?: unknown }) =>
        (notification.params as { requestId?: string | number } | undefined)?.requestId,
    };
    const [clientTransport, serverTransport] = createMemoryTransportPair();
    const client = createConnection(clientTransport, { cancellation });
    const rawServer = createConnection(serverTransport, { cancellation });
    open.push(client, rawServer);
    await Promise.all([client.start(), rawServer.start()]);
    const server = instrumentConnection(rawServer, telemetry);
    let started: () => void = () => {};
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    server.handle("slow", (_params, context) => {
      started();
      return new Promise((resolve) =>
        context.signal.addEventListener("abort", () => resolve("late")),
      );
    });
    const controller = new AbortController();
    const pending = client
      .request("slow", {}, { signal: controller.signal })
      .catch(() => undefined);
    await handlerStarted;
    const recorded = whenRecorded(telemetry, "request.cancelled");
    controller.abort();
    await pending;
    expect(await recorded).toMatchObject({ method: "slow", data: { outcome: "cancelled" } });
  });

  it("tracks requests in flight", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient] = await connectionPair();
    const client = instrumentConnection(rawClient, telemetry, { backend: "slow" });
    const pending = client.request("never", {}).catch(() => undefined);
    const inFlight = () =>
      parsePrometheusTextFormat(telemetry.registry.render()).find(
        (item) => item.name === "patchbay_requests_in_flight",
      )?.metrics[0]?.value;
    expect(inFlight()).toBe("1");
    await rawClient.close();
    await pending;
    expect(inFlight()).toBe("0");
    expect(telemetry.query()[0]?.data).toMatchObject({ outcome: "closed" });
  });

  it("gives handlers the request's trace so a forwarded request continues it", async () => {
    const telemetry = createTestTelemetry();
    const [rawFront, frontServer] = await connectionPair();
    const [rawBackendClient, backendServer] = await connectionPair();
    const front = instrumentConnection(frontServer, telemetry, { source: "gateway" });
    const backend = instrumentConnection(rawBackendClient, telemetry, { backend: "github" });
    let backendMeta: unknown;
    backendServer.handle("tools/call", (params) => {
      backendMeta = params;
      return { content: [] };
    });
    front.handle("tools/call", (params, context) => {
      const trace = requestTraceOf(context);
      if (trace === undefined) throw new Error("no trace");
      return context.connection === front
        ? backend.request("tools/call", injectTraceContext(params as JSONRPCParams, trace))
        : undefined;
    });
    await rawFront.request("tools/call", {
      name: "create_issue",
      _meta: { traceparent: incomingTraceparent },
    });

    const received = telemetry.query({ event_type: "request.received" })[0];
    const forwarded = telemetry.query({ event_type: "request.sent" })[0];
    expect(received).toMatchObject({ trace_id: incomingTraceId, parent_span_id: incomingSpanId });
    expect(forwarded).toMatchObject({
      trace_id: incomingTraceId,
      parent_span_id: received?.span_id,
      backend: "github",
    });
    expect(readTraceContext(backendMeta)).toMatchObject({
      traceId: incomingTraceId,
      spanId: forwarded?.span_id,
    });
    expect(telemetry.query({ trace_id: incomingTraceId, event_type: "tool.called" })).toHaveLength(
      2,
    );
  });

  it("wraps the fallback handler and passes undefined through", async () => {
    const telemetry = createTestTelemetry();
    const [client, rawServer] = await connectionPair();
    const server = instrumentConnection(rawServer, telemetry);
    server.setFallbackRequestHandler((_params, context) => ({ method: context.method }));
    expect(await client.request("anything/at-all")).toEqual({ method: "anything/at-all" });
    expect(telemetry.query()[0]).toMatchObject({
      event_type: "request.completed",
      method: "anything/at-all",
    });
    server.setFallbackRequestHandler(undefined);
    await expect(client.request("anything/at-all")).rejects.toMatchObject({ code: -32601 });
  });

  it("passes every other member through to the original connection", async () => {
    const [rawClient] = await connectionPair();
    const client = instrumentConnection(rawClient, createTestTelemetry());
    expect(client.closed).toBe(false);
    await client.close();
    expect(rawClient.closed).toBe(true);
  });
});

describe("instrumentConnection with OpenTelemetry", () => {
  afterEach(() => {
    api.trace.disable();
  });

  it("emits spans whose parents follow the trace context from _meta", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    api.trace.setGlobalTracerProvider(provider);
    const telemetry = createTelemetry({ openTelemetry: createOpenTelemetryBridge({ api }) });
    const [rawClient, rawServer] = await connectionPair();
    const server = instrumentConnection(rawServer, telemetry);
    server.handle("tools/call", () => ({ content: [] }));
    await rawClient.request("tools/call", {
      name: "echo",
      _meta: { traceparent: incomingTraceparent },
    });

    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("tools/call echo");
    expect(span?.kind).toBe(api.SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(incomingTraceId);
    expect(span?.parentSpanContext?.spanId).toBe(incomingSpanId);
    const event = telemetry.query({ event_type: "tool.called" })[0];
    expect(event?.span_id).toBe(span?.spanContext().spanId);
  });

  it("makes the client span the parent the backend sees", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const telemetry = createTelemetry({
      openTelemetry: createOpenTelemetryBridge({ api, tracerProvider: provider }),
    });
    const [rawClient, server] = await connectionPair();
    const client = instrumentConnection(rawClient, telemetry);
    let seen: unknown;
    server.handle("ping", (params) => {
      seen = params;
      return {};
    });
    await client.request("ping");
    const [span] = exporter.getFinishedSpans();
    expect(span?.kind).toBe(api.SpanKind.CLIENT);
    expect(readTraceContext(seen)).toMatchObject({
      traceId: span?.spanContext().traceId,
      spanId: span?.spanContext().spanId,
    });
  });
});
