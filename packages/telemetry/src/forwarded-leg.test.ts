import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
  type JSONRPCParams,
  type JSONRPCRequest,
} from "@patchbay/jsonrpc-core";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterEach, describe, expect, it } from "vitest";
import { createTestTelemetry, nextFrame } from "../test/helpers.js";
import { instrumentConnection, requestTraceOf } from "./instrument-connection.js";
import { instrumentTransport } from "./instrument-transport.js";
import { trackRequest } from "./request-tracker.js";
import type { Telemetry } from "./telemetry.js";
import { handOffTrace, readTraceContext } from "./trace-context.js";

const open: Connection[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

/**
 * A gateway in miniature: a client connection instrumented as the router's is, whose `tools/call`
 * handler forwards to a backend over an instrumented transport with the call's trace handed off,
 * as the router's forwarder does. Returns the client's side and what the backend saw.
 */
async function miniatureGateway(telemetry: Telemetry, knownTool?: (name: string) => boolean) {
  const [clientSide, gatewayFront] = createMemoryTransportPair();
  const [gatewayBack, backendSide] = createMemoryTransportPair();
  const client = createConnection(clientSide);
  const front = instrumentConnection(createConnection(gatewayFront), telemetry, {
    source: "gateway",
    ...(knownTool === undefined ? {} : { knownTool }),
  });
  const toBackend = createConnection(
    instrumentTransport(gatewayBack, telemetry, { backend: "github" }),
  );
  const backend = createConnection(backendSide);
  open.push(client, front, toBackend, backend);
  const seen: JSONRPCParams[] = [];
  backend.handle("tools/call", (params) => {
    seen.push(params as JSONRPCParams);
    return { content: [] };
  });
  front.handle("tools/call", (params, context) => {
    const trace = requestTraceOf(context);
    const forwarded = { ...(params as Record<string, unknown>), name: "create_issue" };
    return toBackend.request(
      "tools/call",
      trace === undefined ? forwarded : handOffTrace(forwarded, trace, { owned: true }),
    );
  });
  await Promise.all([client, front, toBackend, backend].map((connection) => connection.start()));
  return { client, seen };
}

/** A call being tracked, and an instrumented transport to a backend to forward it on. */
async function callBeforeBackend() {
  const telemetry = createTestTelemetry();
  const [rawClient, server] = createMemoryTransportPair();
  await Promise.all([rawClient.start(), server.start()]);
  const toBackend = instrumentTransport(rawClient, telemetry, { backend: "github" });
  const call = trackRequest(telemetry, {
    direction: "incoming",
    method: "tools/call",
    params: { name: "x" },
  });
  return { telemetry, server, toBackend, call };
}

describe("one tracker per call", () => {
  it("labels a forwarded call's metrics with its tool name without asking knownTool (it was routed by name)", async () => {
    const telemetry = createTestTelemetry();
    const asked: string[] = [];
    const { client } = await miniatureGateway(telemetry, (name) => {
      asked.push(name);
      return false;
    });

    await client.request("tools/call", { name: "github__create_issue", arguments: {} });

    const family = parsePrometheusTextFormat(telemetry.registry.render()).find(
      (item) => item.name === "patchbay_requests_total",
    );
    const tools = (family?.metrics ?? []).map((metric) => metric.labels?.tool);
    expect(tools).toContain("github__create_issue");
    expect(tools).not.toContain("__unknown__");
    expect(asked).toEqual([]);
  });

  it("records a forwarded call as the call's two events; the closing one names the backend leg", async () => {
    const telemetry = createTestTelemetry();
    const { client, seen } = await miniatureGateway(telemetry);

    await client.request("tools/call", { name: "github__create_issue", arguments: {} });

    const events = telemetry.query();
    expect(events.map((event) => event.event_type)).toEqual(["tool.called", "request.received"]);
    const [called] = events;
    const wire = readTraceContext(JSON.parse(JSON.stringify(seen[0])));
    expect(called).toMatchObject({
      tool: "github__create_issue",
      status: "success",
      data: {
        direction: "incoming",
        outcome: "success",
        backend: "github",
        backend_outcome: "success",
      },
    });
    expect(called?.backend).toBeUndefined();
    // The backend continues the call's trace, from the leg's own span.
    expect(wire).toMatchObject({ traceId: called?.trace_id });
    expect(wire?.spanId).not.toBe(called?.span_id);
    expect(called?.data.backend_duration_ms).toEqual(expect.any(Number));
  });

  it("still counts and times the backend leg in the backend's series", async () => {
    const telemetry = createTestTelemetry();
    const { client } = await miniatureGateway(telemetry);

    await client.request("tools/call", { name: "github__create_issue", arguments: {} });

    const text = telemetry.registry.render();
    expect(text).toContain(
      'patchbay_requests_total{direction="outgoing",method="tools/call",backend="github",tool="create_issue",outcome="success"} 1',
    );
    expect(text).toContain(
      'patchbay_request_duration_seconds_count{direction="outgoing",method="tools/call",backend="github",tool="create_issue"} 1',
    );
    expect(text).toContain('patchbay_requests_in_flight{direction="outgoing",backend="github"} 0');
    expect(text).toContain(
      'patchbay_requests_total{direction="incoming",method="tools/call",backend="",tool="github__create_issue",outcome="success"} 1',
    );
  });

  it("tracks a second request sent on the same call's trace as a request of its own", async () => {
    const { telemetry, server, toBackend, call } = await callBeforeBackend();
    for (const id of [1, 2]) {
      const arrived = nextFrame(server);
      await toBackend.send({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: handOffTrace({ name: "x" }, call.trace),
      });
      await arrived;
    }
    // The first is the call's leg (no events); the second records its own request.sent.
    const sent = telemetry.query({ event_type: "request.sent" });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ backend: "github", data: { id: 2 } });
  });

  it("tracks a request sent after its call ended as a request of its own", async () => {
    const { telemetry, server, toBackend, call } = await callBeforeBackend();
    call.end({ outcome: "success" });
    const arrived = nextFrame(server);
    await toBackend.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: handOffTrace({ name: "x" }, call.trace),
    });
    const request = (await arrived) as JSONRPCRequest;
    const [sent] = telemetry.query({ event_type: "request.sent" });
    expect(sent).toMatchObject({ trace_id: call.trace.traceId, parent_span_id: call.trace.spanId });
    expect(readTraceContext(JSON.parse(JSON.stringify(request.params)))?.spanId).toBe(
      sent?.span_id,
    );
    // The ended call's closing event does not change.
    expect(telemetry.query({ event_type: "tool.called" })[0]?.data).not.toHaveProperty("backend");
  });

  it("keeps a call's tracker with its trace without defining a property on it", () => {
    const telemetry = createTestTelemetry();
    const call = trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "x" },
    });
    expect(Object.getOwnPropertySymbols(call.trace)).toEqual([]);
  });

  it("recognises the leg of a call that continues the client's traceparent", async () => {
    const telemetry = createTestTelemetry();
    const { client, seen } = await miniatureGateway(telemetry);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;

    await client.request("tools/call", { name: "github__create_issue", _meta: { traceparent } });

    const events = telemetry.query();
    expect(events.map((event) => event.event_type)).toEqual(["tool.called", "request.received"]);
    expect(events[0]).toMatchObject({
      trace_id: traceId,
      parent_span_id: "00f067aa0ba902b7",
      data: { backend: "github", backend_outcome: "success" },
    });
    const wire = readTraceContext(JSON.parse(JSON.stringify(seen[0])));
    expect(wire?.traceId).toBe(traceId);
    expect(wire?.spanId).not.toBe(events[0]?.span_id);
  });

  it("keeps the call's tracker out of the trace's JSON and spreads", () => {
    const telemetry = createTestTelemetry();
    const call = trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "x" },
    });
    expect(Object.getOwnPropertySymbols({ ...call.trace })).toEqual([]);
    expect(JSON.parse(JSON.stringify(call.trace))).toEqual({ ...call.trace });
  });
});
